import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { activateLocale } from '#web/i18n/i18n.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { ItemFormDialog } from './item-form-dialog';
import { WantFormDialog } from './want-form-dialog';

const CONTACT_REFUSAL =
  "This wording is not appropriate for Barterhood: please keep phone numbers, e-mail addresses and social media out of it; share contact details in the barter's conversation.";

/** The server's answer to a listing with a phone number in `field`. */
const refusedFor = (field: string) => () =>
  HttpResponse.json(
    { message: CONTACT_REFUSAL, code: 'CONTENT_NOT_ALLOWED', reason: 'contact-details', field },
    { status: 400 },
  );

async function fillItem(dialog: ReturnType<typeof within>, description: string) {
  await userEvent.type(dialog.getByLabelText('Title'), 'Cordless drill');
  await userEvent.type(dialog.getByLabelText('Description'), description);
  await userEvent.selectOptions(dialog.getByLabelText('Category'), 'tools');
  await userEvent.click(dialog.getByRole('button', { name: 'Add Item' }));
}

describe('a listing refused for contact details (issue 28)', () => {
  beforeEach(async () => {
    await activateLocale('en');
  });

  it('says under the description that contact details belong in the barter’s conversation', async () => {
    server.use(http.post('/api/items', refusedFor('description')));
    const api = recordRequests();
    renderWithProviders(<ItemFormDialog open onOpenChange={() => {}} />);
    const dialog = within(screen.getByRole('dialog', { name: 'Add New Item' }));
    await fillItem(dialog, 'Call me on 503-555-0199');

    const description = dialog.getByLabelText('Description');
    const text =
      "Please keep phone numbers and e-mail addresses out of listings; share contact details in the barter's conversation.";
    expect(await dialog.findByText(text)).toBeInTheDocument();
    expect(description).toHaveAttribute('aria-invalid', 'true');
    expect(description).toHaveAccessibleDescription(text);
    expect(description).toHaveFocus();
    expect(dialog.getByLabelText('Title')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(/Please use appropriate language/)).not.toBeInTheDocument();
    expect(api.sent.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /api/items']);
  });

  it('keeps the spec’s text for wording that is actually inappropriate', async () => {
    server.use(
      http.post('/api/items', () =>
        errorJson(400, 'This wording is not appropriate for Barterhood: ...', 'CONTENT_NOT_ALLOWED'),
      ),
    );
    renderWithProviders(<ItemFormDialog open onOpenChange={() => {}} />);
    await fillItem(within(screen.getByRole('dialog', { name: 'Add New Item' })), 'Rude words');
    expect(
      await screen.findByText('Please use appropriate language when describing your item.'),
    ).toBeInTheDocument();
  });

  it('says it under a want’s title, in Spanish too', async () => {
    await activateLocale('es');
    server.use(http.post('/api/wants', refusedFor('title')));
    renderWithProviders(<WantFormDialog open onOpenChange={() => {}} />);
    const dialog = within(await screen.findByRole('dialog'));
    const title = dialog.getAllByRole('textbox')[0] as HTMLElement;
    await userEvent.type(title, 'Llámame al 503-555-0199');
    await userEvent.selectOptions(dialog.getByRole('combobox'), 'tools');
    await userEvent.click(dialog.getByRole('button', { name: /Añadir|Agregar/ }));

    expect(
      await dialog.findByText(/^Por favor, no pongas teléfonos ni correos electrónicos en los anuncios/),
    ).toBeInTheDocument();
    expect(title).toHaveAttribute('aria-invalid', 'true');
  });
});
