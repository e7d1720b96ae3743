import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { LogIn, PackageX, Pencil, Share2 } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { Link, useParams } from 'wouter';
import type { ItemDetail } from '#common/schemas/feed.ts';
import { BackToHome } from '../../components/layout/back-to-home';
import { Logo } from '../../components/layout/logo';
import { SiteFooter } from '../../components/layout/site-footer';
import { MAIN_CONTENT_ID } from '../../components/layout/skip-link';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { itemDetailQuery, publicItemQuery } from '../../features/feed/api/item-detail';
import { ItemDetailContent, MemberItemActions } from '../../features/feed/components/item-detail-content';
import { ApiError } from '../../lib/api-client';
import { useUser } from '../../lib/get-user';
import { paths } from '../../lib/paths';
import { loginReturningTo } from '../../lib/return-path';
import { MemberLayout } from '../layout/member-layout';
import NotFoundPage from './not-found-page';

/**
 * Share: the phone's share sheet where there is one, else the link copied with a toast; a browser
 * that allows neither shows the link to copy by hand.
 */
export function ShareButton({ title, path }: { title: string; path: string }) {
  const { t } = useLingui();
  const onShare = async () => {
    const url = new URL(path, window.location.origin).href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // The member closed the sheet: nothing to say.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: t`Link copied`, description: t`Paste it to share "${title}".` });
    } catch {
      toast({ title: t`Copy this link to share it`, description: url });
    }
  };
  return (
    <Button variant="secondary" onClick={() => void onShare()}>
      <Share2 className="h-4 w-4" aria-hidden="true" />
      <Trans>Share</Trans>
    </Button>
  );
}

/** An item that is not there to show (unknown, hidden, removed or traded): said so, with a way on. */
function NoLongerAvailable() {
  return (
    <Card className="mx-auto mt-4 w-full max-w-md p-6">
      <div className="flex items-center gap-2">
        <PackageX className="h-8 w-8 text-slate-600" aria-hidden="true" />
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>This item is no longer available</Trans>
        </h1>
      </div>
      <p className="mt-4 text-sm text-slate-600">
        <Trans>It may have been traded or removed by its owner.</Trans>
      </p>
      <Button asChild className="mt-6">
        <Link href={paths.home}>
          <Trans>See what neighbors offer</Trans>
        </Link>
      </Button>
    </Card>
  );
}

/** What the owner, a member, or a visitor signed out can do with the item. */
function ItemActions({ item, signedIn }: { item: ItemDetail; signedIn: boolean }) {
  const share = <ShareButton title={item.title} path={paths.item(item.id)} />;
  if (!signedIn) {
    return (
      <div className="flex flex-wrap items-center justify-end gap-2">
        {share}
        <Button asChild>
          <Link href={loginReturningTo(paths.item(item.id))}>
            <LogIn className="h-4 w-4" aria-hidden="true" />
            <Trans>Sign in to propose</Trans>
          </Link>
        </Button>
      </div>
    );
  }
  if (item.isOwn) {
    return (
      <div className="grid gap-2">
        <p className="text-sm text-slate-700">
          {item.isActive ? (
            <Trans>This is your listing.</Trans>
          ) : (
            <Trans>This is your listing. It is not shown to others.</Trans>
          )}
        </p>
        <div className="flex flex-wrap items-center justify-end gap-2">
          {item.isActive ? share : null}
          <Button asChild>
            <Link href={paths.profileTab('items')}>
              <Pencil className="h-4 w-4" aria-hidden="true" />
              <Trans>Edit in My Items</Trans>
            </Link>
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      {share}
      <MemberItemActions item={item} />
    </div>
  );
}

/** The item, read as a member (the whole detail) or as a visitor (the public one). */
export function ItemView({ id, signedIn }: { id: number; signedIn: boolean }) {
  const asMember = useQuery({ ...itemDetailQuery(id), enabled: signedIn });
  const asVisitor = useQuery({ ...publicItemQuery(id), enabled: !signedIn });
  const query = signedIn ? asMember : asVisitor;
  const item = query.data;
  useEffect(() => {
    if (item) document.title = `${item.title} · Barterhood`;
  }, [item]);
  if (query.isPending) {
    return (
      <output className="block py-12 text-center text-slate-600" aria-live="polite">
        <Trans>Loading...</Trans>
      </output>
    );
  }
  if (query.isError || !item) {
    if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400)) {
      return <NoLongerAvailable />;
    }
    return (
      <div className="grid gap-3 py-8 text-center">
        <p className="text-red-700" role="alert">
          <Trans>This item could not be loaded. Check your connection and try again.</Trans>
        </p>
        <div>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      </div>
    );
  }
  return (
    <article aria-labelledby="item-page-title" className="mx-auto grid w-full max-w-2xl gap-4">
      <h1 id="item-page-title" className="break-words text-2xl font-bold text-slate-900">
        {item.title}
      </h1>
      <ItemDetailContent
        item={item}
        signedIn={signedIn}
        actions={<ItemActions item={item} signedIn={signedIn} />}
      />
    </article>
  );
}

/** The frame of the page for a visitor signed out: the logo, the item, the footer. */
function VisitorFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center px-4 py-3">
          <Logo />
        </div>
      </header>
      <main id={MAIN_CONTENT_ID} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

/** /items/:id (issue 31): an item's own page, to open from a card, a barter or a shared link. */
export default function ItemPage() {
  const { id } = useParams<{ id: string }>();
  const { isAuthenticated } = useUser();
  if (!/^[1-9]\d{0,9}$/.test(id ?? '') || Number(id) > 2_147_483_647) return <NotFoundPage />;
  const view = <ItemView key={`${id}-${isAuthenticated}`} id={Number(id)} signedIn={isAuthenticated} />;
  if (!isAuthenticated) return <VisitorFrame>{view}</VisitorFrame>;
  return (
    <MemberLayout>
      <BackToHome />
      {view}
    </MemberLayout>
  );
}
