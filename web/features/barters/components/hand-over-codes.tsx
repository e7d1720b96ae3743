import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { useSearch } from 'wouter';
import {
  formatHandOverCode,
  HAND_OVER_CODE_ERROR_CODES,
  HAND_OVER_CODE_INPUT_MAX_LENGTH,
  HAND_OVER_CODE_PARAM,
  isHandOverCodeShape,
  normalizeHandOverCode,
} from '#common/hand-over-code-rules.ts';
import type { Barter } from '#common/schemas/barters.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useEnterHandOverCode, useHandOverCode } from '../api/hand-over-codes';

/** The code a scanned QR opened the page with (`?code=`), when it looks like one. */
function scannedCode(search: string): string {
  const raw = new URLSearchParams(search).get(HAND_OVER_CODE_PARAM);
  if (raw === null || raw.length > HAND_OVER_CODE_INPUT_MAX_LENGTH) return '';
  const code = normalizeHandOverCode(raw);
  return isHandOverCodeShape(code) ? formatHandOverCode(code) : '';
}

/**
 * Confirm on the spot (issue 30, ADR 075), on an accepted barter's page: the viewer's own code and
 * its QR to show the other member, and a form to enter theirs; the right code completes the barter
 * at once, for both (the other page follows through its live events).
 */
export function HandOverCodes({ barter }: { barter: Barter }) {
  const { t } = useLingui();
  const name = barter.otherMember.displayName;
  const mine = useHandOverCode(barter.id, barter.status === 'accepted');
  const enter = useEnterHandOverCode(barter.id);
  const scanned = scannedCode(useSearch());
  const [value, setValue] = useState(scanned);
  const [error, setError] = useState<string | undefined>();

  const explain = (failure: unknown): string => {
    if (!(failure instanceof ApiError)) return t`That did not work. Please try again.`;
    switch (failure.code) {
      case HAND_OVER_CODE_ERROR_CODES.own:
        return t`That is your own code: show it to ${name}, and enter the code shown on their phone.`;
      case HAND_OVER_CODE_ERROR_CODES.wrong: {
        const left = Number(failure.details.reason);
        const tries = plural(left, { one: '# try left', other: '# tries left' });
        return Number.isInteger(left)
          ? t`That is not their code for this hand-over: ${tries}.`
          : t`That is not their code for this hand-over.`;
      }
      case HAND_OVER_CODE_ERROR_CODES.locked: {
        const minutes = Math.max(1, Math.ceil((failure.retryAfterSeconds ?? 60) / 60));
        return t`Too many wrong codes for this hand-over. You can enter a code again in ${minutes} min, or both confirm the exchange instead.`;
      }
      default:
        return failure.status === 409
          ? t`This hand-over is no longer open: it was completed or canceled.`
          : t`That did not work. Please try again.`;
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const code = normalizeHandOverCode(value);
    if (!isHandOverCodeShape(code)) {
      setError(t`A hand-over code is 6 letters and digits, as shown on their phone.`);
      return;
    }
    setError(undefined);
    try {
      await enter.mutateAsync(code);
    } catch (failure) {
      setError(explain(failure));
      return;
    }
    toast({ title: t`Barter Completed` });
  };

  return (
    <section
      aria-labelledby="hand-over-codes-heading"
      className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4"
    >
      <div className="grid gap-1">
        <h2 id="hand-over-codes-heading" className="font-semibold">
          <Trans>Confirm on the spot</Trans>
        </h2>
        <p className="text-sm text-slate-700">
          <Trans>
            When you meet, show {name} your code (or let them scan it) and enter theirs: the barter completes
            at once.
          </Trans>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        {mine.data ? (
          <>
            <img
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(mine.data.qrSvg)}`}
              alt={t`QR code of your hand-over code: scanning it opens this barter with your code`}
              width={144}
              height={144}
              className="h-36 w-36 rounded-md border border-slate-200"
            />
            <dl className="grid gap-1">
              <dt className="text-sm text-slate-700">
                <Trans>Your code</Trans>
              </dt>
              <dd
                className="font-mono text-3xl font-bold tracking-widest text-slate-900"
                data-testid="my-hand-over-code"
              >
                {formatHandOverCode(mine.data.code)}
              </dd>
            </dl>
          </>
        ) : mine.isError ? (
          <p role="alert" className="text-sm text-red-700">
            <Trans>Your code could not be loaded. Please reload the page.</Trans>
          </p>
        ) : (
          <p className="text-sm text-slate-600">
            <Trans>Loading your code...</Trans>
          </p>
        )}
      </div>
      <form onSubmit={submit} noValidate className="grid gap-3 sm:max-w-sm">
        <FormField label={t`Their code`} error={error}>
          <Input
            value={value}
            onChange={(event) => setValue(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={HAND_OVER_CODE_INPUT_MAX_LENGTH}
            className="font-mono uppercase tracking-widest"
          />
        </FormField>
        {scanned && value === scanned ? (
          <p className="text-sm text-slate-700">
            <Trans>Code from the scanned QR code: confirm the hand-over once you have your items.</Trans>
          </p>
        ) : null}
        <Button type="submit" disabled={enter.isPending} className="justify-self-start">
          {enter.isPending ? t`Confirming...` : t`Confirm hand-over`}
        </Button>
      </form>
    </section>
  );
}
