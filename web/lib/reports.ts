import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import type { ReportInput, ReportReason } from '#common/schemas/safety.ts';
import { apiRequest } from './api-client';

/** POST /api/reports: the Report button on a listing, a member, a message or a rating. */
export function useReport() {
  return useMutation({
    mutationFn: async (input: ReportInput) => {
      await apiRequest('POST', '/api/reports', input);
    },
  });
}

/** The reasons a member can pick when reporting (the English of REPORT_REASON_LABELS). */
export const REPORT_REASON_MESSAGES: Record<ReportReason, MessageDescriptor> = {
  dating: msg`Dating or personal ads`,
  explicit: msg`Explicit material`,
  'drugs-alcohol': msg`Drugs or alcohol`,
  'contact-details': msg`Sharing contact information`,
  scam: msg`Scam or fraud`,
  other: msg`Something else`,
};
