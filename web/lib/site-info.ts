import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '#common/schemas/site.ts';
import { apiGet } from './api-client';
import { siteKeys } from './query-keys';

/** GET /api/site: contact addresses, the public URL and which sign-in ways are on. */
export const siteInfoQuery = () =>
  queryOptions({
    queryKey: siteKeys.info,
    queryFn: () => apiGet<SiteInfo>('/api/site') as Promise<SiteInfo>,
  });

export function useSiteInfo() {
  return useQuery(siteInfoQuery());
}
