import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Camera, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { CAMERA_IDEAL_HEIGHT, CAMERA_IDEAL_WIDTH, CAMERA_JPEG_QUALITY } from '../../../../common/constants';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';

/** Spec section 8: the alert shown when the camera cannot be opened. */
export const CAMERA_DENIED_MESSAGE = msg`Unable to access camera. Please check permissions.`;

/**
 * The camera dialog (spec section 2): rear camera at an ideal 1280x720, Capture, Retake, Use Photo
 * and Cancel; the photo is a JPEG at quality 0.8.
 */
export function CameraDialog({
  open,
  onOpenChange,
  onCapture,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCapture: (dataUrl: string) => void;
}) {
  const { t, i18n } = useLingui();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [photo, setPhoto] = useState<string | null>(null);
  // Capture only once the preview has frames: a stream without dimensions would capture nothing.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!open || photo) return;
    setReady(false);
    let active: MediaStream | null = null;
    let cancelled = false;
    navigator.mediaDevices
      .getUserMedia({
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
      .catch(() => {
        if (cancelled) return;
        window.alert(i18n._(CAMERA_DENIED_MESSAGE));
        onOpenChange(false);
      });
    return () => {
      cancelled = true;
      for (const track of active?.getTracks() ?? []) track.stop();
      setReady(false);
    };
  }, [open, photo, onOpenChange, i18n]);

  const close = (next: boolean) => {
    if (!next) setPhoto(null);
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
