import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { LocateFixed } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import {
  LOCATION_SEARCH_DEBOUNCE_MS,
  LOCATION_SEARCH_MAX_RESULTS,
  LOCATION_SEARCH_MIN_CHARS,
} from '#common/constants.ts';
import type { Place } from '#common/schemas/places.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { formatPlaceName } from '#web/i18n/place-names.ts';
import { usePlaceSearch, useReversePlace } from '#web/lib/places.ts';
import { useDebouncedValue } from '#web/lib/use-debounced-value.ts';
import { cn } from '#web/lib/utils.ts';

/** Spec section 4: location search is idle, searching or showing results. */
export type LocationSearchState = 'idle' | 'searching' | 'results';

export interface LocationPickerProps {
  /** The text in the field: the member's location. */
  value: string;
  /** The member typed: the text is no longer a chosen place. */
  onTextChange: (text: string) => void;
  /** The member chose a suggestion, or their current location was looked up. */
  onSelect: (place: Place) => void;
  onBlur?: () => void;
  name?: string;
  /** Set by FormField: the label's target, the invalid state and the message's id. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

function getCurrentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) {
      reject(new Error('This browser cannot share its location'));
      return;
    }
    navigator.geolocation.getCurrentPosition(resolve, reject, {
      enableHighAccuracy: false,
      timeout: 15_000,
      maximumAge: 10 * 60_000,
    });
  });
}

/**
 * The location picker (spec sections 2, 5 and 8): a combobox that searches places (towns,
 * neighborhoods, ZIP codes) from 3 typed characters after a 300 ms pause and offers up to 5, plus a
 * use-current-location button (browser geolocation, then the reverse look-up for a name; the
 * browser's own point is what is kept). Failures are logged and clear the suggestions.
 * Keyboard: arrow keys move through the suggestions, Enter chooses, Escape closes.
 */
export function LocationPicker({
  value,
  onTextChange,
  onSelect,
  onBlur,
  name,
  id,
  'aria-invalid': ariaInvalid,
  'aria-describedby': ariaDescribedBy,
}: LocationPickerProps) {
  const { t } = useLingui();
  const baseId = useId();
  const inputId = id ?? `${baseId}-input`;
  const listboxId = `${baseId}-listbox`;
  const hintId = `${baseId}-hint`;
  const optionId = (index: number) => `${baseId}-option-${index}`;

  // What the member typed since the last choice; a chosen place's name is not searched again.
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  const [locating, setLocating] = useState(false);
  const [geolocationFailed, setGeolocationFailed] = useState(false);

  const minChars = LOCATION_SEARCH_MIN_CHARS;
  const typed = term.trim();
  const debounced = useDebouncedValue(typed, LOCATION_SEARCH_DEBOUNCE_MS);
  const search = usePlaceSearch(debounced);
  const reverse = useReversePlace();

  useEffect(() => {
    if (search.error) console.warn('Location search failed', search.error);
  }, [search.error]);

  let state: LocationSearchState = 'idle';
  if (typed.length < LOCATION_SEARCH_MIN_CHARS) state = 'idle';
  else if (debounced !== typed || search.isFetching) state = 'searching';
  else if (search.isError) state = 'idle';
  else if (search.data) state = 'results';

  const places = state === 'results' ? (search.data ?? []).slice(0, LOCATION_SEARCH_MAX_RESULTS) : [];
  const popupVisible = open && state !== 'idle';
  const listOpen = open && places.length > 0;
  const active = listOpen && activeIndex < places.length ? activeIndex : -1;

  function choose(place: Place) {
    onSelect(place);
    setTerm('');
    setOpen(false);
    setActiveIndex(-1);
  }

  async function fillCurrentLocation() {
    setGeolocationFailed(false);
    setLocating(true);
    try {
      const position = await getCurrentPosition();
      const { latitude, longitude } = position.coords;
      const place = await reverse(latitude, longitude);
      // The name is only a label: the member's own point is kept, not the named place's centre,
      // so neighbours on different streets are not all put on one point (issue 17).
      choose({ ...place, latitude, longitude });
    } catch (error) {
      // Spec section 8: logged only, and the suggestions are cleared.
      console.warn('Could not use the current location', error);
      setTerm('');
      setOpen(false);
      setGeolocationFailed(true);
    } finally {
      setLocating(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = places.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (count === 0) return;
        event.preventDefault();
        const down = event.key === 'ArrowDown';
        if (!listOpen) {
          setOpen(true);
          setActiveIndex(down ? 0 : count - 1);
        } else if (down) {
          setActiveIndex(active < 0 ? 0 : (active + 1) % count);
        } else {
          setActiveIndex(active <= 0 ? count - 1 : active - 1);
        }
        return;
      }
      case 'Enter': {
        const place = active >= 0 ? places[active] : undefined;
        if (!place) return; // Nothing highlighted: Enter submits the form as usual.
        event.preventDefault();
        choose(place);
        return;
      }
      case 'Escape':
        if (!popupVisible) return;
        event.preventDefault();
        setOpen(false);
        setActiveIndex(-1);
        return;
    }
  }

  const found = places.length;
  const announcement =
    open && state === 'results' ? plural(found, { one: '# location found', other: '# locations found' }) : '';

  return (
    <div className="grid gap-2" data-state={state}>
      <div className="relative">
        <Input
          id={inputId}
          name={name}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={listOpen}
          aria-controls={listboxId}
          aria-activedescendant={active >= 0 ? optionId(active) : undefined}
          aria-invalid={ariaInvalid}
          aria-describedby={[ariaDescribedBy, hintId].filter(Boolean).join(' ')}
          placeholder={t`Type your neighborhood, ZIP code or town`}
          // A chosen place's name in the reader's language (ADR 060); typed text as typed.
          value={term ? value : formatPlaceName(value)}
          onChange={(event) => {
            onTextChange(event.target.value);
            setTerm(event.target.value);
            setOpen(true);
            setActiveIndex(-1);
            setGeolocationFailed(false);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            setOpen(false);
            onBlur?.();
          }}
        />
        <div
          className={cn(
            'absolute inset-x-0 top-full z-30 mt-1 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg',
            !popupVisible && 'hidden',
          )}
        >
          {state === 'searching' ? (
            <p className="px-3 py-2 text-sm text-slate-600">
              <Trans>Searching...</Trans>
            </p>
          ) : null}
          {state === 'results' && places.length === 0 ? (
            <p className="px-3 py-2 text-sm text-slate-600">
              <Trans>No locations found.</Trans>
            </p>
          ) : null}
          <div
            id={listboxId}
            role="listbox"
            aria-label={t`Location suggestions`}
            hidden={!listOpen}
            // Keeps the focus in the field while a suggestion is clicked.
            onMouseDown={(event) => event.preventDefault()}
          >
            {places.map((place, index) => {
              const [town, ...rest] = formatPlaceName(place.displayName).split(', ');
              return (
                // The keyboard reaches the options through the combobox (aria-activedescendant).
                // biome-ignore lint/a11y/useKeyWithClickEvents: see above
                <div
                  key={place.id}
                  id={optionId(index)}
                  role="option"
                  tabIndex={-1}
                  aria-selected={index === active}
                  className={cn(
                    'cursor-pointer px-3 py-2 text-sm text-slate-900',
                    index === active ? 'bg-brand-100' : 'hover:bg-slate-100',
                  )}
                  onMouseEnter={() => setActiveIndex(index)}
                  onClick={() => choose(place)}
                >
                  <span className="font-medium">{town}</span>
                  {rest.length > 0 ? <span className="text-slate-600">, {rest.join(', ')}</span> : null}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <p id={hintId} className="text-xs text-slate-600">
        <Trans>
          Type at least {minChars} letters or the digits of your ZIP code, then choose from the list. A
          neighborhood or ZIP code puts you nearer your neighbors than a whole town.
        </Trans>
      </p>
      {/* The offline place data's credit (ADR 032): outside the field's description, read once. */}
      <p className="text-xs text-slate-600">
        <Trans>
          Neighborhoods: Zillow (CC BY-SA 3.0). ZIP codes: U.S. Census Bureau. Towns: GeoNames (CC BY 4.0).
        </Trans>
      </p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" size="sm" onClick={fillCurrentLocation} disabled={locating}>
          <LocateFixed className="h-4 w-4" aria-hidden="true" />
          {locating ? t`Locating...` : t`Use current location`}
        </Button>
        <p role="status" className="text-sm text-slate-600">
          {geolocationFailed
            ? t`We could not find your current location. Type your neighborhood, ZIP code or town instead.`
            : ''}
        </p>
      </div>
    </div>
  );
}
