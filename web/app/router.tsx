import { lazy, Suspense, useEffect } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { RouteErrorBoundary } from '../components/layout/route-error-boundary';
import { LoadingView } from '../features/gate/components/gate-guard';
import { LandingPage } from '../features/landing/components/landing-page';
import { withMessages } from '../i18n/i18n';
import { screenMounted } from '../lib/app-started';
import { useUser } from '../lib/get-user';
import { importChunk } from '../lib/import-chunk';
import { paths } from '../lib/paths';
import { loginReturningTo } from '../lib/return-path';

// Everything but the gate and the landing page is split into its own chunk. The feed page's messages
// load before the first render; the other pages wait for the rest of them (ADR 036).
const TermsPage = lazy(() => withMessages(() => import('./pages/terms-page')));
const AccessibilityPage = lazy(() => withMessages(() => import('./pages/accessibility-page')));
const NotFoundPage = lazy(() => withMessages(() => import('./pages/not-found-page')));
const FlyerPage = lazy(() => withMessages(() => import('./pages/flyer-page')));
const LoginPage = lazy(() => withMessages(() => import('./pages/login-page')));
const RegisterPage = lazy(() => withMessages(() => import('./pages/register-page')));
const DemoLoginPage = lazy(() => withMessages(() => import('./pages/demo-login-page')));
const HomePage = lazy(() => importChunk(() => import('./pages/home-page')));
const ProfilePage = lazy(() => withMessages(() => import('./pages/profile-page')));
// The search results' page lives in the home page's chunk, which loads the results' own (ADR 089).
const SearchPage = lazy(() =>
  importChunk(() => import('./pages/home-page')).then((module) => ({ default: module.SearchPage })),
);
const MemberPage = lazy(() => withMessages(() => import('./pages/member-page')));
const ItemPage = lazy(() => withMessages(() => import('./pages/item-page')));
const BartersPage = lazy(() => withMessages(() => import('./pages/barters-page')));
const BarterPage = lazy(() => withMessages(() => import('./pages/barter-page')));
const MessagesPage = lazy(() => withMessages(() => import('./pages/messages-page')));
const CirclesPage = lazy(() => withMessages(() => import('./pages/circles-page')));
const CirclePage = lazy(() => withMessages(() => import('./pages/circle-page')));
const SwapDaysPage = lazy(() => withMessages(() => import('./pages/swap-days-page')));
const SwapDayPage = lazy(() => withMessages(() => import('./pages/swap-day-page')));
const SwapDaySheetPage = lazy(() => withMessages(() => import('./pages/swap-day-sheet-page')));
const ForgotPasswordPage = lazy(() => withMessages(() => import('./pages/forgot-password-page')));
const ResetPasswordPage = lazy(() => withMessages(() => import('./pages/reset-password-page')));
const VerifyEmailPage = lazy(() => withMessages(() => import('./pages/verify-email-page')));
const ModerationPage = lazy(() => withMessages(() => import('./pages/moderation-page')));
const UnsubscribePage = lazy(() => withMessages(() => import('./pages/unsubscribe-page')));
const SuspendedView = lazy(() =>
  withMessages(() => import('../features/safety/components/suspended-view')).then((module) => ({
    default: module.SuspendedView,
  })),
);

/** Member-only pages: visited signed out, they lead to the login screen and back (issue 17). */
const MEMBER_PATTERNS = [
  paths.profile,
  paths.search,
  paths.memberPattern,
  paths.messages,
  paths.barters,
  paths.barterPattern,
  paths.circles,
  paths.circlePattern,
  paths.swapDays,
  paths.swapDaySheetPattern,
  paths.swapDayPattern,
  paths.moderation,
];

/** To /login, remembering the page asked for (its query too). */
function ToLogin() {
  const [location] = useLocation();
  const search = useSearch();
  return <Redirect to={loginReturningTo(search ? `${location}?${search}` : location)} replace />;
}

/** Tells web/lib/app-started.ts that the router's part is mounted (or hydrated). */
function MarkStarted() {
  useEffect(screenMounted, []);
  return null;
}

/**
 * The route table of spec section 2: public routes while signed out or loading, member routes when
 * signed in; anything else is the 404 page.
 */
export function AppRouter() {
  const { isAuthenticated, isLoading, user } = useUser();
  const [location] = useLocation();
  // A suspended member sees only the notice and the appeal (ADR 025).
  if (user?.suspendedUntil) {
    return (
      <RouteErrorBoundary location={location}>
        <Suspense fallback={<LoadingView />}>
          <MarkStarted />
          <SuspendedView until={user.suspendedUntil} />
        </Suspense>
      </RouteErrorBoundary>
    );
  }
  // Every route drawn inside an error boundary: a screen that fails (its code did not arrive, twice)
  // shows what happened and a way on, never a blank page (ADR 052).
  return (
    <Suspense fallback={<LoadingView />}>
      <MarkStarted />
      <RouteErrorBoundary location={location}>
        {isLoading || !isAuthenticated ? (
          <Switch>
            <Route path={paths.home} component={LandingPage} />
            <Route path={paths.login} component={LoginPage} />
            <Route path={paths.register} component={RegisterPage} />
            <Route path={paths.demoLogin} component={DemoLoginPage} />
            <Route path={paths.forgotPassword} component={ForgotPasswordPage} />
            <Route path={paths.resetPassword} component={ResetPasswordPage} />
            <Route path={paths.verifyEmail} component={VerifyEmailPage} />
            <Route path={paths.unsubscribe} component={UnsubscribePage} />
            <Route path={paths.terms} component={TermsPage} />
            <Route path={paths.accessibility} component={AccessibilityPage} />
            <Route path={paths.flyer} component={FlyerPage} />
            {/* An item's page is open to visitors past the gate (issue 31), signed in or not. */}
            <Route path={paths.itemPattern}>{isLoading ? <LoadingView /> : <ItemPage />}</Route>
            {MEMBER_PATTERNS.map((pattern) => (
              <Route key={pattern} path={pattern}>
                {isLoading ? <LoadingView /> : <ToLogin />}
              </Route>
            ))}
            <Route component={NotFoundPage} />
          </Switch>
        ) : (
          <Switch>
            <Route path={paths.home} component={HomePage} />
            <Route path={paths.profile} component={ProfilePage} />
            <Route path={paths.search} component={SearchPage} />
            <Route path={paths.memberPattern} component={MemberPage} />
            <Route path={paths.itemPattern} component={ItemPage} />
            <Route path={paths.messages} component={MessagesPage} />
            <Route path={paths.barters} component={BartersPage} />
            <Route path={paths.barterPattern} component={BarterPage} />
            <Route path={paths.circles} component={CirclesPage} />
            <Route path={paths.circlePattern} component={CirclePage} />
            <Route path={paths.swapDays} component={SwapDaysPage} />
            <Route path={paths.swapDaySheetPattern} component={SwapDaySheetPage} />
            <Route path={paths.swapDayPattern} component={SwapDayPage} />
            <Route path={paths.moderation} component={ModerationPage} />
            <Route path={paths.resetPassword} component={ResetPasswordPage} />
            <Route path={paths.verifyEmail} component={VerifyEmailPage} />
            <Route path={paths.unsubscribe} component={UnsubscribePage} />
            <Route path={paths.terms} component={TermsPage} />
            <Route path={paths.accessibility} component={AccessibilityPage} />
            <Route path={paths.flyer} component={FlyerPage} />
            <Route component={NotFoundPage} />
          </Switch>
        )}
      </RouteErrorBoundary>
    </Suspense>
  );
}
