import { Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { CursorPaging } from '../api/use-cursor-paging';

/** The labels a pager shows, in the page's language. */
export interface CursorPagerLabels {
  previous: string;
  next: string;
  /** e.g. "Page 2" */
  page: string;
}

/** Previous / next buttons for a cursor-paged list; `nextCursor` null means this is the last page. */
export function CursorPager({ paging, nextCursor, loading, labels }: { paging: CursorPaging; nextCursor: string | null; loading: boolean; labels: CursorPagerLabels }) {
  return (
    <Group justify="flex-end" gap="xs">
      <Button size="xs" variant="default" leftSection={<IconChevronLeft size={14} />} disabled={paging.pageNumber === 1 || loading} onClick={paging.previous}>
        {labels.previous}
      </Button>
      <Text size="sm" c="dimmed">{labels.page}</Text>
      <Button
        size="xs"
        variant="default"
        rightSection={<IconChevronRight size={14} />}
        disabled={nextCursor === null}
        loading={loading}
        onClick={() => nextCursor !== null && paging.next(nextCursor)}
      >
        {labels.next}
      </Button>
    </Group>
  );
}
