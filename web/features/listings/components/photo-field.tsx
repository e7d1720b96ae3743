import { Trans, useLingui } from '@lingui/react/macro';
import { Camera, ImagePlus, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { fileToPhotoDataUrl } from '../photo';
import { CameraDialog } from './camera-dialog';

/**
 * The item photo: take one with the camera or choose a file; held as a data URL (spec section 5)
 * or, when editing, the URL the server already serves.
 */
export function PhotoField({
  value,
  onChange,
  disabled,
}: {
  value: string | null | undefined;
  onChange: (dataUrl: string | null) => void;
  /** While a photo is being analysed the photo buttons are disabled (spec section 4). */
  disabled?: boolean;
}) {
  const { t } = useLingui();
  const [cameraOpen, setCameraOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();

  const choose = async (file: File | undefined) => {
    if (!file) return;
    try {
      onChange(await fileToPhotoDataUrl(file));
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
  };

  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-medium text-slate-800">
        <Trans>Photo</Trans>
      </legend>
      {value ? (
        <img
          src={value}
          alt={t`Item preview`}
          className="max-h-56 w-full rounded-xl bg-slate-100 object-contain"
        />
      ) : (
        <div className="flex h-32 items-center justify-center rounded-xl border-2 border-dashed border-slate-300 text-sm text-slate-500">
          <Trans>No photo yet</Trans>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" disabled={disabled} onClick={() => setCameraOpen(true)}>
          <Camera className="h-4 w-4" aria-hidden="true" />
          <Trans>Take Photo</Trans>
        </Button>
        <Button variant="secondary" size="sm" disabled={disabled} onClick={() => fileInput.current?.click()}>
          <ImagePlus className="h-4 w-4" aria-hidden="true" />
          <Trans>Choose File</Trans>
        </Button>
        {value ? (
          <Button variant="ghost" size="sm" disabled={disabled} onClick={() => onChange(null)}>
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            <Trans>Remove Photo</Trans>
          </Button>
        ) : null}
        <input
          ref={fileInput}
          id={id}
          type="file"
          accept="image/*"
          aria-label={t`Choose a photo file`}
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => void choose(event.target.files?.[0])}
        />
      </div>
      <CameraDialog
        open={cameraOpen}
        onOpenChange={setCameraOpen}
        onCapture={onChange}
        onChooseFile={() => fileInput.current?.click()}
      />
    </fieldset>
  );
}
