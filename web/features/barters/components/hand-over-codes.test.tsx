import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import { HAND_OVER_CODE_ERROR_CODES } from '#common/schemas/hand-over-codes.ts';
import { barterKeys } from '#web/lib/query-keys.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { useBarter } from '../api/barters';
import { barter } from '../testing/fixtures';
import { handOverCode } from '../testing/hand-over-code';
import { HandOverCodes } from './hand-over-codes';

const URL_ = '/api/barter-requests/7/hand-over-code';
const accepted = barter({
  status: 'accepted',
  expiresAt: null,
  allowedActions: ['cancel', 'confirm', 'message'],
});
const mine = handOverCode(7);

/** The section with the viewer's code answered; `post` answers the entered code. */
function stub(post: Parameters<typeof http.post>[1]) {
  server.use(
    http.get(URL_, () => HttpResponse.json(mine)),
    http.post(URL_, post),
  );
  return recordRequests();
}

const render = (path = '/barters/7') => renderWithProviders(<HandOverCodes barter={accepted} />, { path });

const errorAnswer = (status: number, code: string, extra: Record<string, string> = {}, headers = {}) =>
  HttpResponse.json({ message: 'refused', code, ...extra }, { status, headers });

describe('HandOverCodes', () => {
  it('shows the viewer’s code, read in two groups, and its QR, in a labelled section', async () => {
    stub(() => HttpResponse.json(accepted));
    render();
    const section = screen.getByRole('region', { name: 'Confirm on the spot' });
    expect(section).toHaveTextContent('When you meet, show Ann R. your code');
    expect(await screen.findByTestId('my-hand-over-code')).toHaveTextContent('K7M 4QX');
    expect(screen.getByText('Your code')).toBeInTheDocument();
    const qr = screen.getByRole('img', { name: /QR code of your hand-over code/ });
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(mine.qrSvg)}`);
    expect(screen.getByRole('textbox', { name: 'Their code' })).toHaveValue('');
  });

  it('sends their code as typed loosely, normalized, and keeps the completed barter', async () => {
    const requests = stub(() =>
      HttpResponse.json({ ...accepted, status: 'completed', allowedActions: ['rate'] }),
    );
    const { queryClient } = render();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Their code' }), 'ab c-234');
    await user.keyboard('{Enter}');
    await screen.findByText('Barter Completed');
    expect(await requests.bodiesOf(`POST ${URL_}`)).toEqual([{ code: 'ABC234' }]);
    expect(queryClient.getQueryData<Barter>(barterKeys.detail(7))?.status).toBe('completed');
  });

  it('says a code of the wrong shape at once, without asking the server', async () => {
    const requests = stub(() => HttpResponse.json(accepted));
    render();
    const user = userEvent.setup();
    const input = screen.getByRole('textbox', { name: 'Their code' });
    await user.type(input, 'abc1');
    await user.click(screen.getByRole('button', { name: 'Confirm hand-over' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A hand-over code is 6 letters and digits, as shown on their phone.',
    );
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(requests.to(`POST ${URL_}`)).toHaveLength(0);
  });

  it.each([
    [
      'a wrong code, with the tries left',
      errorAnswer(400, HAND_OVER_CODE_ERROR_CODES.wrong, { reason: '4' }),
      'That is not their code for this hand-over: 4 tries left.',
    ],
    [
      'the last try',
      errorAnswer(400, HAND_OVER_CODE_ERROR_CODES.wrong, { reason: '1' }),
      'That is not their code for this hand-over: 1 try left.',
    ],
    [
      'the viewer’s own code',
      errorAnswer(400, HAND_OVER_CODE_ERROR_CODES.own),
      'That is your own code: show it to Ann R., and enter the code shown on their phone.',
    ],
    [
      'entry locked, for as long as Retry-After says',
      errorAnswer(429, HAND_OVER_CODE_ERROR_CODES.locked, {}, { 'retry-after': '840' }),
      'Too many wrong codes for this hand-over. You can enter a code again in 14 min, or both confirm the exchange instead.',
    ],
    [
      'a barter no longer open',
      errorAnswer(409, 'BARTER_TRANSITION'),
      'This hand-over is no longer open: it was completed or canceled.',
    ],
  ])('says why a code was refused: %s', async (_name, answer, message) => {
    stub(() => answer);
    render();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Their code' }), 'ABC234');
    await user.click(screen.getByRole('button', { name: 'Confirm hand-over' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('a scanned QR opens the page with their code filled in, to confirm with one press', async () => {
    const requests = stub(() =>
      HttpResponse.json({ ...accepted, status: 'completed', allowedActions: ['rate'] }),
    );
    render('/barters/7?code=abc234');
    const input = screen.getByRole('textbox', { name: 'Their code' });
    expect(input).toHaveValue('ABC 234');
    expect(screen.getByText(/Code from the scanned QR code/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm hand-over' }));
    await waitFor(() => expect(requests.to(`POST ${URL_}`)).toHaveLength(1));
    expect(await requests.bodiesOf(`POST ${URL_}`)).toEqual([{ code: 'ABC234' }]);
  });

  it('ignores a query code that is no code', async () => {
    stub(() => HttpResponse.json(accepted));
    render(`/barters/7?code=${encodeURIComponent('<script>')}`);
    expect(screen.getByRole('textbox', { name: 'Their code' })).toHaveValue('');
    expect(screen.queryByText(/Code from the scanned QR code/)).not.toBeInTheDocument();
    await screen.findByTestId('my-hand-over-code');
  });

  it('reads the barter again when the server has no code for it (completed meanwhile)', async () => {
    let reads = 0;
    server.use(
      http.get(URL_, () => HttpResponse.json(null)),
      http.get('/api/barter-requests/7', () => {
        reads++;
        return HttpResponse.json({ ...accepted, status: reads > 1 ? 'completed' : 'accepted' });
      }),
    );
    function Page() {
      const shown = useBarter(7).data;
      return shown ? <p>{shown.status}</p> : null;
    }
    renderWithProviders(
      <>
        <Page />
        <HandOverCodes barter={accepted} />
      </>,
    );
    expect(await screen.findByText('completed')).toBeInTheDocument();
    expect(reads).toBe(2);
  });
});
