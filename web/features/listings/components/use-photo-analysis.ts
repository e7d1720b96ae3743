import { useLingui } from '@lingui/react/macro';
import { useCallback, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { UseFormReturn } from 'react-hook-form';
import { type ImageAnalysis, isEmptyAnalysis } from '#common/schemas/analyze.ts';
import type { ItemFormValues } from '#common/schemas/listings.ts';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAnalyzeImage } from '../api/analyze-image';

type FillableField = 'title' | 'description' | 'category' | 'estimatedValue' | 'isService';

const isBlank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

/**
 * The item form's 'AI analyzing' state (spec sections 4 and 8): after a new photo, ask the server
 * what it shows, then fill only the fields the member has not typed into (and that are empty, so an
 * edited item's own details stay), with the spec's toasts. A newer photo, or closing the dialog,
 * makes a pending answer stale: it is then ignored.
 */
export function usePhotoAnalysis(form: UseFormReturn<ItemFormValues>) {
  const { t } = useLingui();
  const analyzeImage = useAnalyzeImage();
  const [analyzing, setAnalyzing] = useState(false);
  const run = useRef(0);
  /** Fields the last analysis filled: a later photo may replace what the AI wrote, never the member. */
  const filledByAi = useRef(new Set<FillableField>());
  /** The category the last analysis filled in, shown as a suggestion while it stands (issue 28). */
  const [suggestedCategory, setSuggestedCategory] = useState<string | null>(null);

  const apply = useCallback(
    (analysis: ImageAnalysis): number => {
      const { dirtyFields } = form.formState;
      const canFill = (name: FillableField) =>
        !dirtyFields[name] && (isBlank(form.getValues(name)) || filledByAi.current.has(name));
      const options = { shouldValidate: form.formState.isSubmitted };
      let filled = 0;
      const fill = (name: Exclude<FillableField, 'isService'>, value: string) => {
        form.setValue(name, value, options);
        filledByAi.current.add(name);
        filled++;
      };

      if (analysis.title && canFill('title')) fill('title', analysis.title);
      if (analysis.description && canFill('description')) fill('description', analysis.description);
      if (analysis.category && canFill('category')) {
        const isService = analysis.isService ?? false;
        // A service category needs the service list first (switching it by hand clears the category).
        // flushSync renders the other list's options now, so the select can take the category.
        if ((form.getValues('isService') ?? false) !== isService && !dirtyFields.isService) {
          flushSync(() => form.setValue('isService', isService, options));
          filledByAi.current.add('isService');
        }
        if ((form.getValues('isService') ?? false) === isService) {
          fill('category', analysis.category);
          setSuggestedCategory(analysis.category);
        }
      }
      if (analysis.estimatedValue !== undefined && canFill('estimatedValue')) {
        fill('estimatedValue', String(analysis.estimatedValue));
      }
      return filled;
    },
    [form],
  );

  /** Analyse a newly taken or chosen photo (a data URL). */
  const analyzePhoto = useCallback(
    async (image: string) => {
      const current = ++run.current;
      setAnalyzing(true);
      try {
        const analysis = await analyzeImage.mutateAsync(image);
        if (current !== run.current) return;
        if (isEmptyAnalysis(analysis)) {
          toast({
            title: t`AI Analysis Complete`,
            description: t`We could not read details from this photo. Please fill them in.`,
          });
        } else if (apply(analysis) > 0) {
          toast({
            title: t`AI Analysis Complete`,
            description: t`Item details were generated from your photo.`,
          });
        } else {
          toast({
            title: t`AI Analysis Complete`,
            description: t`Your own details were kept; nothing was changed.`,
          });
        }
      } catch (error) {
        if (current !== run.current) return;
        console.warn('Photo analysis failed', error);
        toast({
          title: t`Analysis Failed`,
          description: t`Could not analyze the image. Please fill in details manually.`,
          variant: 'destructive',
        });
      } finally {
        if (current === run.current) setAnalyzing(false);
      }
    },
    [analyzeImage.mutateAsync, apply, t],
  );

  /** Forget a pending analysis and what earlier ones filled (the dialog opened or closed). */
  const reset = useCallback(() => {
    run.current++;
    filledByAi.current.clear();
    setAnalyzing(false);
    setSuggestedCategory(null);
  }, []);

  return { analyzing, analyzePhoto, reset, suggestedCategory };
}
