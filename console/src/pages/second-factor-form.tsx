import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../api/request-api';

/** The sign-in's second step: a code from the authenticator app, or a recovery code; `onSignedIn` gets the return path. */
export function SecondFactorForm({ onSignedIn }: { onSignedIn: (returnPath: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const verify = useMutation({
    mutationFn: () => requestApi<{ returnPath: string }>('POST', '/auth/two-factor', useRecovery ? { recoveryCode: value } : { code: value }),
    onSuccess: (answer) => onSignedIn(answer.returnPath),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (value.trim() !== '') verify.mutate();
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text fw={600}>{t('security.signInTitle')}</Text>
        <Text size="sm">{t('security.signInPrompt')}</Text>
        <TextInput
          label={useRecovery ? t('security.recoveryCode') : t('security.code')}
          inputMode={useRecovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoFocus
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
        />
        {verify.isError && <Alert color="red" role="alert">{verify.error.message}</Alert>}
        <Button type="submit" loading={verify.isPending}>{t('security.verify')}</Button>
        <Anchor component="button" type="button" size="sm" onClick={() => { setUseRecovery(!useRecovery); setValue(''); }}>
          {useRecovery ? t('security.useCode') : t('security.useRecoveryCode')}
        </Anchor>
      </Stack>
    </form>
  );
}
