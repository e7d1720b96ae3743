import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '../../../../common/schemas/site';
import { apiGet } from '../../../lib/api-client';

export const siteKeys = { info: ['site', 'info'] as const };

/** GET /api/site: contact addresses, the public URL and which sign-in ways are on. */
export const siteInfoQuery = () =>
  queryOptions({
    queryKey: siteKeys.info,
    queryFn: () => apiGet<SiteInfo>('/api/site') as Promise<SiteInfo>,
  });

export function useSiteInfo() {
  return useQuery(siteInfoQuery());
}
