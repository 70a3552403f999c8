import { Alert, Button, Code, Group, Image, List, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../api/request-api';
import { SettingsSection } from './settings-section';
import { twoFactorQueryKey } from './settings-query-keys';
import type { TwoFactorEnrolment, TwoFactorState } from './settings-types';

/**
 * Settings → Security: turn two-factor sign-in on (QR code, confirming code, recovery codes shown once) or off, and
 * make new recovery codes with a current code (the old ones stop working).
 */
export function SecuritySection() {
  const { t } = useTranslation();
  const state = useQuery({ queryKey: twoFactorQueryKey, queryFn: () => requestApi<TwoFactorState>('GET', '/me/two-factor') });
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | undefined>();

  let body;
  if (recoveryCodes) body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />;
  else if (!state.data) body = null;
  else if (state.data.enabled)
    body = (
      <Stack gap="lg">
        <DisableForm recoveryCodesLeft={state.data.recoveryCodesLeft} />
        <RenewRecoveryCodesForm onRenewed={setRecoveryCodes} />
      </Stack>
    );
  else body = <EnrolForm required={state.data.required} onEnabled={setRecoveryCodes} />;

  return (
    <SettingsSection id="security" title={t('security.title')} description={t('security.description')}>
      {body}
    </SettingsSection>
  );
}

function EnrolForm({ required, onEnabled }: { required: boolean; onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [qrCode, setQrCode] = useState<string | undefined>();
  const enrol = useMutation({ mutationFn: () => requestApi<TwoFactorEnrolment>('POST', '/me/two-factor/enrol') });
  const confirm = useMutation({
    mutationFn: () => requestApi<{ enabled: true; recoveryCodes: string[] }>('POST', '/me/two-factor/confirm', { code }),
    onSuccess: (answer) => {
      onEnabled(answer.recoveryCodes);
      void queryClient.invalidateQueries({ queryKey: twoFactorQueryKey });
      notifications.show({ color: 'teal', message: t('security.enabled') });
    },
  });
  const uri = enrol.data?.otpauthUri;
  useEffect(() => {
    if (uri === undefined) return;
    let current = true;
    void QRCode.toDataURL(uri, { margin: 1, width: 200 }).then((url) => current && setQrCode(url));
    return () => {
      current = false;
    };
  }, [uri]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (code.trim() !== '') confirm.mutate();
  }

  return (
    <Stack gap="sm" maw={460}>
      {required && <Alert color="yellow">{t('security.required')}</Alert>}
      <Text size="sm">{t('security.off')}</Text>
      {!enrol.data && (
        <Button onClick={() => enrol.mutate()} loading={enrol.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('security.setUp')}
        </Button>
      )}
      {enrol.isError && <Alert color="red">{enrol.error.message}</Alert>}
      {enrol.data && (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">{t('security.scan')}</Text>
            {qrCode && <Image src={qrCode} alt={t('security.qrAlt')} w={200} h={200} />}
            <Text size="sm">
              {t('security.secret')}: <Code data-testid="two-factor-secret">{enrol.data.secret}</Code>
            </Text>
            <TextInput label={t('security.code')} inputMode="numeric" autoComplete="one-time-code" value={code} error={submitted && code.trim() === '' ? t('security.codeRequired') : undefined} onChange={(event) => setCode(event.currentTarget.value)} />
            {confirm.isError && <Alert color="red" role="alert">{confirm.error.message}</Alert>}
            <Button type="submit" loading={confirm.isPending} style={{ alignSelf: 'flex-start' }}>{t('security.confirm')}</Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" maw={460}>
      <Text fw={600}>{t('security.recoveryTitle')}</Text>
      <Alert color="yellow">{t('security.recoveryWarning')}</Alert>
      <List spacing={2} data-testid="recovery-codes">
        {codes.map((code) => (
          <List.Item key={code}>
            <Code>{code}</Code>
          </List.Item>
        ))}
      </List>
      <Button onClick={onDone} style={{ alignSelf: 'flex-start' }}>{t('security.recoveryDone')}</Button>
    </Stack>
  );
}

function DisableForm({ recoveryCodesLeft }: { recoveryCodesLeft: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const disable = useMutation({
    mutationFn: () => requestApi<{ enabled: false }>('POST', '/me/two-factor/disable', code.trim() !== '' ? { code } : { password }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: twoFactorQueryKey });
      notifications.show({ color: 'teal', message: t('security.disabled') });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (code.trim() !== '' || password !== '') disable.mutate();
  }

  return (
    <Stack gap="sm" maw={460}>
      <Text size="sm">{t('security.on', { count: recoveryCodesLeft })}</Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600}>{t('security.disableTitle')}</Text>
          <Text size="sm" c="dimmed">{t('security.disableHint')}</Text>
          <Group grow align="flex-start">
            <TextInput label={t('security.code')} inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.currentTarget.value)} />
            <PasswordInput label={t('security.password')} autoComplete="current-password" value={password} onChange={(event) => setPassword(event.currentTarget.value)} />
          </Group>
          {disable.isError && <Alert color="red" role="alert">{disable.error.message}</Alert>}
          <Button type="submit" color="red" variant="light" loading={disable.isPending} style={{ alignSelf: 'flex-start' }}>{t('security.disable')}</Button>
        </Stack>
      </form>
    </Stack>
  );
}

/** New recovery codes after a current app code: shown once by the parent, the old ones stop working. */
function RenewRecoveryCodesForm({ onRenewed }: { onRenewed: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const renew = useMutation({
    mutationFn: () => requestApi<{ recoveryCodes: string[] }>('POST', '/me/two-factor/recovery-codes', { code }),
    onSuccess: (answer) => {
      onRenewed(answer.recoveryCodes);
      void queryClient.invalidateQueries({ queryKey: twoFactorQueryKey });
      notifications.show({ color: 'teal', message: t('security.renewed') });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (code.trim() !== '') renew.mutate();
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={460}>
        <Text fw={600}>{t('security.renewTitle')}</Text>
        <Text size="sm" c="dimmed">{t('security.renewHint')}</Text>
        <TextInput label={t('security.renewCode')} inputMode="numeric" autoComplete="one-time-code" value={code} error={submitted && code.trim() === '' ? t('security.codeRequired') : undefined} onChange={(event) => setCode(event.currentTarget.value)} />
        {renew.isError && <Alert color="red" role="alert">{renew.error.message}</Alert>}
        <Button type="submit" variant="light" loading={renew.isPending} style={{ alignSelf: 'flex-start' }}>{t('security.renew')}</Button>
      </Stack>
    </form>
  );
}
