import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Camera, ImagePlus, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { CAMERA_IDEAL_HEIGHT, CAMERA_IDEAL_WIDTH, CAMERA_JPEG_QUALITY } from '#common/constants.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';

/** Spec section 8: the alert shown when the camera cannot be opened. */
export const CAMERA_DENIED_MESSAGE = msg`Unable to access camera. Please check permissions.`;

/** The camera, or a refusal when the browser has none to offer (no camera API outside HTTPS). */
function openCamera(constraints: MediaStreamConstraints): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    return Promise.reject(new DOMException('No camera API in this browser', 'NotSupportedError'));
  }
  return navigator.mediaDevices.getUserMedia(constraints);
}

/**
 * The camera dialog (spec section 2): rear camera at an ideal 1280x720, Capture, Retake, Use Photo
 * and Cancel; the photo is a JPEG at quality 0.8. When the camera cannot be opened (permission
 * refused, no camera, no camera API) the dialog says the spec's alert text in an alert the page
 * shows (a browser's own alert box can be suppressed, and a phone's often is) and offers the file
 * button instead (ADR 061).
 */
export function CameraDialog({
  open,
  onOpenChange,
  onCapture,
  onChooseFile,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCapture: (dataUrl: string) => void;
  /** Choose a photo file instead: the way on when the camera cannot be used. */
  onChooseFile: () => void;
}) {
  const { t, i18n } = useLingui();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [photo, setPhoto] = useState<string | null>(null);
  // Capture only once the preview has frames: a stream without dimensions would capture nothing.
  const [ready, setReady] = useState(false);
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    if (!open || photo) return;
    setReady(false);
    setUnavailable(false);
    let active: MediaStream | null = null;
    let cancelled = false;
    openCamera({
      video: {
        facingMode: 'environment',
        width: { ideal: CAMERA_IDEAL_WIDTH },
        height: { ideal: CAMERA_IDEAL_HEIGHT },
      },
      audio: false,
    })
      .then((media) => {
        if (cancelled) {
          for (const track of media.getTracks()) track.stop();
          return;
        }
        active = media;
        const video = videoRef.current;
        if (!video) return;
        video.srcObject = media;
        // A stream the element already has frames of fires no further loadeddata (a quick Retake).
        if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) setReady(true);
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        console.warn('The camera could not be opened', error);
        setUnavailable(true);
      });
    return () => {
      cancelled = true;
      for (const track of active?.getTracks() ?? []) track.stop();
      setReady(false);
    };
  }, [open, photo]);

  const close = (next: boolean) => {
    if (!next) {
      setPhoto(null);
      setUnavailable(false);
    }
    onOpenChange(next);
  };

  const capture = () => {
    const video = videoRef.current;
    if (!video?.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0);
    setPhoto(canvas.toDataURL('image/jpeg', CAMERA_JPEG_QUALITY));
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title={t`Take Photo`} description={t`Point your camera at the item, then capture.`}>
        {unavailable ? (
          <div role="alert" className="grid gap-1 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm">
            <p className="font-semibold text-slate-900">{i18n._(CAMERA_DENIED_MESSAGE)}</p>
            <p className="text-slate-700">
              <Trans>You can choose a photo from your files instead.</Trans>
            </p>
          </div>
        ) : (
          <div className="overflow-hidden rounded-xl bg-slate-900">
            {photo ? (
              <img src={photo} alt={t`Captured preview`} className="aspect-video w-full object-contain" />
            ) : (
              <video
                ref={videoRef}
                autoPlay
                playsInline
                muted
                aria-label={t`Camera preview`}
                onLoadedData={() => setReady(true)}
                onPlaying={() => setReady(true)}
                className="aspect-video w-full object-contain"
              />
            )}
          </div>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => close(false)}>
            <Trans>Cancel</Trans>
          </Button>
          {photo ? (
            <>
              <Button variant="secondary" onClick={() => setPhoto(null)}>
                <RotateCcw className="h-4 w-4" aria-hidden="true" />
                <Trans>Retake</Trans>
              </Button>
              <Button
                onClick={() => {
                  onCapture(photo);
                  close(false);
                }}
              >
                <Trans>Use Photo</Trans>
              </Button>
            </>
          ) : unavailable ? (
            <Button
              onClick={() => {
                close(false);
                onChooseFile();
              }}
            >
              <ImagePlus className="h-4 w-4" aria-hidden="true" />
              <Trans>Choose File</Trans>
            </Button>
          ) : (
            <Button onClick={capture} disabled={!ready}>
              <Camera className="h-4 w-4" aria-hidden="true" />
              <Trans>Capture</Trans>
            </Button>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
