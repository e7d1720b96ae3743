import { HttpResponse, http } from 'msw';
import type { HandOverCode } from '#common/schemas/hand-over-codes.ts';

/** The viewer's hand-over code as the server answers it (issue 30). */
export function handOverCode(id: number, code = 'K7M4QX'): HandOverCode {
  return {
    code,
    link: `http://localhost/barters/${id}?code=${code}`,
    qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M0 0h1v1H0z"/></svg>',
  };
}

/** An accepted barter's page asks for the viewer's code: this answers it. */
export const handOverCodeHandler = (id: number, code?: string) =>
  http.get(`/api/barter-requests/${id}/hand-over-code`, () => HttpResponse.json(handOverCode(id, code)));
