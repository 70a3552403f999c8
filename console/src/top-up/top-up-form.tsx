import { Alert, Button, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../api/request-api';
import { formatMicroUnits } from '../format/format-micro-units';
import { parseAmountToMicroUnits } from '../format/parse-amount';
import { redirectBrowser } from './redirect-browser';
import { formatMinorUnits, quoteTopUp } from './top-up-quote';
import type { CreatedTopUpOrder, PaymentMethod, TopUpOptions, TopUpOrder } from './top-up-types';

/** What is wrong with a typed amount, as a catalog key, or null when it can be paid. */
export function amountProblem(amount: string, minimumMicroUnits: number): 'amountRequired' | 'amountInvalid' | 'amountBelowMinimum' | null {
  if (amount.trim() === '') return 'amountRequired';
  const microUnits = parseAmountToMicroUnits(amount);
  if (microUnits === null || microUnits === 0) return 'amountInvalid';
  return microUnits < minimumMicroUnits ? 'amountBelowMinimum' : null;
}

/**
 * The top-up form: method, a preset or custom amount (checked as you type against the minimum), the exact charge,
 * credit and first-top-up bonus before paying; pay sends the browser to the provider or hands a QR order on.
 */
export function TopUpForm({ options, onQrOrder }: { options: TopUpOptions; onQrOrder: (order: TopUpOrder, qrCode: string) => void }) {
  const { t, i18n } = useTranslation();
  const [method, setMethod] = useState<PaymentMethod | null>(options.methods[0]?.method ?? null);
  const [amount, setAmount] = useState(options.presets[0] ?? '');
  const [redirecting, setRedirecting] = useState(false);
  const chosen = options.methods.find((candidate) => candidate.method === method);
  const minimum = parseAmountToMicroUnits(options.minimum) ?? 0;
  const problem = amountProblem(amount, minimum);
  const requested = parseAmountToMicroUnits(amount);
  const quote = chosen && problem === null && requested !== null ? quoteTopUp(requested, chosen, options.bonus) : null;
  const money = (microUnits: number) => formatMicroUnits(microUnits, i18n.language);

  const pay = useMutation({
    mutationFn: (input: { method: PaymentMethod; amount: string }) => requestApi<CreatedTopUpOrder>('POST', '/topup/orders', input),
    onSuccess: (created) => {
      if ('redirectUrl' in created) {
        setRedirecting(true);
        redirectBrowser(created.redirectUrl);
        return;
      }
      notifications.show({ color: 'teal', message: t('topUp.form.orderCreated') });
      onQrOrder(created.order, created.qrCode);
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!chosen || problem !== null) return;
    pay.mutate({ method: chosen.method, amount: amount.trim() });
  }

  const bonusRule = options.bonus;
  const bonusOffered = bonusRule.eligible && (bonusRule.percent !== '0' || bonusRule.fixed !== '0');
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Radio.Group label={t('topUp.form.method')} value={method} onChange={(value) => setMethod(value as PaymentMethod)}>
          <Group gap="lg" mt={4}>
            {options.methods.map((option) => (
              <Radio key={option.method} value={option.method} label={t(`topUp.methods.${option.method}`)} description={t('topUp.form.methodCurrency', { currency: option.currency.toUpperCase(), kind: t(`topUp.form.kind.${option.kind}`) })} />
            ))}
          </Group>
        </Radio.Group>
        <div>
          <Text size="sm" fw={500} mb={4}>{t('topUp.form.presets')}</Text>
          <Group gap="xs">
            {options.presets.map((preset) => (
              <Button key={preset} size="xs" variant={amount.trim() === preset ? 'filled' : 'default'} aria-pressed={amount.trim() === preset} onClick={() => setAmount(preset)}>
                {preset}
              </Button>
            ))}
          </Group>
        </div>
        <TextInput
          label={t('topUp.form.amount')}
          description={t('topUp.form.amountHint', { minimum: options.minimum })}
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.currentTarget.value)}
          error={problem !== null && amount !== '' ? t(`topUp.form.${problem}`, { minimum: options.minimum }) : undefined}
        />
        {bonusOffered && (
          <Text size="sm" c="teal">
            {bonusRule.cap === null ? t('topUp.form.bonusRule', { percent: bonusRule.percent, fixed: bonusRule.fixed }) : t('topUp.form.bonusRuleCapped', { percent: bonusRule.percent, fixed: bonusRule.fixed, cap: bonusRule.cap })}
          </Text>
        )}
        {quote && chosen && (
          <Alert color="blue" variant="light" data-testid="top-up-preview">
            {quote.bonusMicroUnits > 0
              ? t('topUp.form.previewWithBonus', { paid: `${formatMinorUnits(quote.amountPaidMinor, chosen.currency)} ${chosen.currency.toUpperCase()}`, credit: money(quote.creditMicroUnits), bonus: money(quote.bonusMicroUnits) })
              : t('topUp.form.preview', { paid: `${formatMinorUnits(quote.amountPaidMinor, chosen.currency)} ${chosen.currency.toUpperCase()}`, credit: money(quote.creditMicroUnits) })}
          </Alert>
        )}
        {pay.isError && <Alert color="red" role="alert">{pay.error.message}</Alert>}
        <Button type="submit" loading={pay.isPending || redirecting} disabled={!chosen || problem !== null}>
          {chosen ? t('topUp.form.payWith', { method: t(`topUp.methods.${chosen.method}`) }) : t('topUp.form.pay')}
        </Button>
      </Stack>
    </form>
  );
}
