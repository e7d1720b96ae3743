import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowDown, ArrowUp, Camera, ImagePlus, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { ITEM_PHOTOS_MAX } from '#common/schemas/listings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { fileToPhotoDataUrl } from '../photo';
import { CameraDialog } from './camera-dialog';

/**
 * An item's photos (ADR 082), up to ITEM_PHOTOS_MAX, the first the cover: take one with the camera
 * or choose files; each is held as a data URL (new) or the URL the server serves it at (kept).
 * Reordered by Move up / Move down buttons (keyboard and screen readers, not drag only) and removed
 * one by one; a polite status says what moved.
 */
export function PhotosField({
  value,
  onChange,
  disabled,
}: {
  value: readonly string[];
  onChange: (photos: string[]) => void;
  /** While a photo is being analysed the photo buttons are disabled (spec section 4). */
  disabled?: boolean;
}) {
  const { t } = useLingui();
  const [cameraOpen, setCameraOpen] = useState(false);
  const [said, setSaid] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();
  const count = value.length;
  const full = count >= ITEM_PHOTOS_MAX;

  const add = (chosen: string[]) => {
    // The same photo twice is one photo (the server names files by content).
    const photos = [...new Set(chosen)].filter((photo) => !value.includes(photo));
    const room = ITEM_PHOTOS_MAX - count;
    if (photos.length > room) {
      toast({
        title: t`Error`,
        description: t`An item can have at most ${ITEM_PHOTOS_MAX} photos.`,
        variant: 'destructive',
      });
    }
    const added = photos.slice(0, Math.max(0, room));
    if (added.length > 0) onChange([...value, ...added]);
  };

  const choose = async (files: FileList | null | undefined) => {
    if (!files || files.length === 0) return;
    const read: string[] = [];
    try {
      for (const file of Array.from(files)) read.push(await fileToPhotoDataUrl(file));
    } catch (error) {
      console.warn('Could not read the photo', error);
      toast({
        title: t`Error`,
        description: t`That file is not a photo we can read.`,
        variant: 'destructive',
      });
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
    add(read);
  };

  const move = (from: number, to: number) => {
    const next = [...value];
    const [photo] = next.splice(from, 1);
    if (photo === undefined) return;
    next.splice(to, 0, photo);
    onChange(next);
    setSaid(
      to === 0
        ? t`Photo ${from + 1} is now photo 1 of ${count}, the cover.`
        : t`Photo ${from + 1} is now photo ${to + 1} of ${count}.`,
    );
  };

  const remove = (index: number) => {
    onChange(value.filter((_, i) => i !== index));
    setSaid(t`Photo ${index + 1} removed.`);
  };

  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-medium text-slate-800">
        <Trans>Photos</Trans>
      </legend>
      <p className="text-xs text-slate-600">
        <Trans>
          Up to {ITEM_PHOTOS_MAX} photos. The first is the cover, shown on cards. {count} of {ITEM_PHOTOS_MAX}
          .
        </Trans>
      </p>
      {count === 0 ? (
        <div className="flex h-32 items-center justify-center rounded-xl border-2 border-dashed border-slate-300 text-sm text-slate-600">
          <Trans>No photo yet</Trans>
        </div>
      ) : (
        <ol className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label={t`Your photos, the cover first`}>
          {value.map((photo, index) => (
            <li key={photo} className="grid gap-1 rounded-lg border border-slate-200 p-1">
              <div className="relative">
                <img
                  src={photo}
                  alt={index === 0 ? t`Photo 1 of ${count} (cover)` : t`Photo ${index + 1} of ${count}`}
                  className="h-24 w-full rounded-md bg-slate-100 object-cover"
                />
                {index === 0 ? (
                  <span
                    aria-hidden="true"
                    className="absolute top-1 left-1 rounded bg-brand-800 px-1.5 py-0.5 text-xs font-semibold text-white"
                  >
                    <Trans>Cover</Trans>
                  </span>
                ) : null}
              </div>
              <div className="flex justify-between gap-1">
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={disabled || index === 0}
                  aria-label={t`Move photo ${index + 1} up`}
                  onClick={() => move(index, index - 1)}
                >
                  <ArrowUp className="h-4 w-4" aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={disabled || index === count - 1}
                  aria-label={t`Move photo ${index + 1} down`}
                  onClick={() => move(index, index + 1)}
                >
                  <ArrowDown className="h-4 w-4" aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={disabled}
                  aria-label={t`Remove photo ${index + 1}`}
                  onClick={() => remove(index)}
                >
                  <Trash2 className="h-4 w-4" aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <p role="status" className="sr-only">
        {said}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" disabled={disabled || full} onClick={() => setCameraOpen(true)}>
          <Camera className="h-4 w-4" aria-hidden="true" />
          <Trans>Take Photo</Trans>
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled || full}
          onClick={() => fileInput.current?.click()}
        >
          <ImagePlus className="h-4 w-4" aria-hidden="true" />
          <Trans>Choose File</Trans>
        </Button>
        <input
          ref={fileInput}
          id={id}
          type="file"
          accept="image/*"
          multiple
          aria-label={t`Choose a photo file`}
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => void choose(event.target.files)}
        />
      </div>
      <CameraDialog
        open={cameraOpen}
        onOpenChange={setCameraOpen}
        onCapture={(photo) => add([photo])}
        onChooseFile={() => fileInput.current?.click()}
      />
    </fieldset>
  );
}
