import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnswerNoShowInput, Attendance } from '#common/schemas/no-shows.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { storeAnswer } from '#web/lib/query-client.ts';
import { barterKeys } from '#web/lib/query-keys.ts';

// Keeping your word (issue 30, ADR 079). The key sits under the barter's, so the 'barter' live event
// (sent to both members on a report, an answer or a confirmation) reads it again.

export const attendanceKey = (id: number) => [...barterKeys.detail(id), 'attendance'] as const;
const url = (id: number, tail = '') => `/api/barter-requests/${id}/attendance${tail}`;

/** GET .../attendance: may I report a no-show, reports about me or mine, "Confirm you'll be there". */
export const attendanceQuery = (id: number) =>
  queryOptions({ queryKey: attendanceKey(id), queryFn: () => apiGet<Attendance>(url(id)) });

export function useAttendance(id: number, enabled: boolean) {
  return useQuery({ ...attendanceQuery(id), enabled });
}

export type AttendanceChange =
  | { kind: 'report'; version: number }
  | { kind: 'confirm'; version: number }
  | { kind: 'answer'; answer: AnswerNoShowInput };

/** Report a no-show, answer a report, or confirm attendance: the answer is the attendance as it now is. */
export function useChangeAttendance(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: AttendanceChange): Promise<Attendance> => {
      const response =
        change.kind === 'answer'
          ? await apiRequest('POST', url(id, '/answer'), change.answer)
          : await apiRequest('POST', url(id, `/${change.kind}`), { version: change.version });
      return (await response.json()) as Attendance;
    },
    onSuccess: (attendance) => storeAnswer(queryClient, attendanceKey(id), attendance),
    onError: () => queryClient.invalidateQueries({ queryKey: attendanceKey(id) }),
  });
}
