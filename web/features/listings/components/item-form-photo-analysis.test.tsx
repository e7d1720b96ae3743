import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { ImageAnalysis } from '#common/schemas/analyze.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { ItemFormDialog } from './item-form-dialog';

const PHOTO = 'data:image/jpeg;base64,/9j/AAAA';

// jsdom cannot decode images; the photo is read as this data URL.
vi.mock('../photo', () => ({ fileToPhotoDataUrl: async () => PHOTO }));

interface Api {
  /** What POST /api/analyze-image answers, once `hold` settles. */
  answer?: ImageAnalysis;
  status?: number;
  hold?: Promise<void>;
}

/** Answer the one call the form makes when a photo is chosen; anything else fails the test. */
function answerApi({ answer, status = 200, hold }: Api) {
  server.use(
    http.post('/api/analyze-image', async () => {
      await hold;
      if (status !== 200) return errorJson(status, 'Upstream failed', 'AI_UNAVAILABLE');
      return HttpResponse.json(answer);
    }),
  );
  return recordRequests();
}

function renderDialog() {
  renderWithProviders(<ItemFormDialog open onOpenChange={() => {}} />);
  const dialog = within(screen.getByRole('dialog', { name: 'Add New Item' }));
  return {
    dialog,
    title: dialog.getByLabelText('Title'),
    description: dialog.getByLabelText('Description'),
    category: dialog.getByLabelText('Category'),
    value: dialog.getByLabelText('Estimated Value ($)'),
    service: dialog.getByRole('switch', { name: 'This is a service' }),
    choosePhoto: () =>
      userEvent.upload(
        dialog.getByLabelText('Choose a photo file'),
        new File(['x'], 'cover.jpg', { type: 'image/jpeg' }),
      ),
  };
}

/** A toast's text (the open modal hides the toast region from role queries, so by text). */
const toastText = (text: string) => screen.findByText(text);

describe('ItemFormDialog photo analysis', () => {
  it("shows 'Analyzing photo...' with the photo buttons disabled, then fills the fields not typed into", async () => {
    let release: () => void = () => {};
    const api = answerApi({
      hold: new Promise((resolve) => (release = resolve)),
      answer: {
        provider: 'local',
        title: 'The Hobbit',
        description: 'The Hobbit by J.R.R. Tolkien. ISBN 9780261102217.',
        category: 'books',
        isService: false,
        estimatedValue: 12.5,
        confidence: { title: 0.86, description: 0.8, category: 0.95, estimatedValue: 0.4 },
      },
    });
    const form = renderDialog();
    await userEvent.type(form.description, 'My own words');
    await form.choosePhoto();

    expect(await form.dialog.findByText('Analyzing photo...')).toBeVisible();
    expect(form.dialog.getByText('Analyzing photo...')).toHaveAttribute('role', 'status');
    expect(form.dialog.getByRole('button', { name: 'Take Photo' })).toBeDisabled();
    expect(form.dialog.getByRole('button', { name: 'Choose File' })).toBeDisabled();
    expect(form.dialog.getByRole('button', { name: 'Remove photo 1' })).toBeDisabled();
    expect(api.sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /api/analyze-image',
    ]);
    expect(await api.bodiesOf('POST /api/analyze-image')).toEqual([{ image: PHOTO }]);

    release();
    expect(await toastText('AI Analysis Complete')).toBeVisible();
    expect(await toastText('Item details were generated from your photo.')).toBeVisible();
    expect(form.title).toHaveValue('The Hobbit');
    expect(form.category).toHaveValue('books');
    expect(form.value).toHaveValue(12.5);
    // Typed by the member: kept.
    expect(form.description).toHaveValue('My own words');
    expect(form.dialog.queryByText('Analyzing photo...')).toBeNull();
    expect(form.dialog.getByRole('button', { name: 'Choose File' })).toBeEnabled();
  });

  it('switches to the service list before choosing a service category', async () => {
    answerApi({
      answer: {
        provider: 'openai',
        title: 'Guitar lessons',
        category: 'lessons',
        isService: true,
        confidence: {},
      },
    });
    const form = renderDialog();
    await form.choosePhoto();
    expect(await toastText('Item details were generated from your photo.')).toBeVisible();
    expect(form.service).toBeChecked();
    expect(form.category).toHaveValue('lessons');
  });

  it('shows the photo’s category as a suggestion the member can change (issue 28)', async () => {
    answerApi({ answer: { provider: 'local', title: 'Camping tent', category: 'rvs+camp', confidence: {} } });
    const form = renderDialog();
    await form.choosePhoto();
    expect(await toastText('Item details were generated from your photo.')).toBeVisible();
    expect(form.category).toHaveValue('rvs+camp');
    const hint = 'Suggested from your photo. You can choose another category.';
    expect(form.dialog.getByText(hint)).toBeVisible();
    await userEvent.selectOptions(form.category, 'sporting');
    expect(form.category).toHaveValue('sporting');
    expect(form.dialog.queryByText(hint)).not.toBeInTheDocument();
  });

  it('suggests nothing when the member chose a category first', async () => {
    answerApi({ answer: { provider: 'local', category: 'books', isService: false, confidence: {} } });
    const form = renderDialog();
    await userEvent.selectOptions(form.category, 'tools');
    await form.choosePhoto();
    expect(await toastText('Your own details were kept; nothing was changed.')).toBeVisible();
    expect(form.category).toHaveValue('tools');
    expect(form.dialog.queryByText(/Suggested from your photo/)).not.toBeInTheDocument();
  });

  it('leaves a category alone when the member chose the other list by hand', async () => {
    answerApi({ answer: { provider: 'local', category: 'books', isService: false, confidence: {} } });
    const form = renderDialog();
    await userEvent.click(form.service);
    await form.choosePhoto();
    expect(await toastText('Your own details were kept; nothing was changed.')).toBeVisible();
    expect(form.service).toBeChecked();
    expect(form.category).toHaveValue('');
  });

  it('says so honestly when nothing could be read, and leaves the fields empty', async () => {
    answerApi({ answer: { provider: 'local', confidence: {} } });
    const form = renderDialog();
    await form.choosePhoto();
    expect(await toastText('We could not read details from this photo. Please fill them in.')).toBeVisible();
    expect(form.title).toHaveValue('');
    expect(form.description).toHaveValue('');
    expect(form.category).toHaveValue('');
  });

  it("shows 'Analysis Failed' when the analysis fails, and the form stays usable", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    answerApi({ status: 502 });
    const form = renderDialog();
    await form.choosePhoto();
    expect(await toastText('Analysis Failed')).toBeVisible();
    expect(await toastText('Could not analyze the image. Please fill in details manually.')).toBeVisible();
    await waitFor(() => expect(form.dialog.getByRole('button', { name: 'Choose File' })).toBeEnabled());
    expect(form.title).toHaveValue('');
    warn.mockRestore();
  });
});
