import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A write to the /api: on success a notification says `success` and the lists under `refresh` reload; on failure
 * a notification shows the gateway's message.
 */
export function useAdminWrite<Variables, Answer>(options: {
  write: (variables: Variables) => Promise<Answer>;
  success: (answer: Answer, variables: Variables) => string;
  refresh: readonly QueryKey[];
  onDone?: (answer: Answer) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: options.write,
    onSuccess: (answer, variables) => {
      notifications.show({ color: 'teal', message: options.success(answer, variables) });
      options.onDone?.(answer);
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
    onSettled: () => Promise.all(options.refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
