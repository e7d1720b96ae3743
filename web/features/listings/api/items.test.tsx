import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { useSwapDay } from '../../swap-days/api/swap-days';
import { useCreateItem } from './items';

afterEach(() => vi.unstubAllGlobals());

/** What a swap day's page lists under "Your items" (its offerable items), and an Add Item button. */
function SwapDayWithAddItem() {
  const swapDay = useSwapDay(7);
  const create = useCreateItem();
  return (
    <>
      <ul aria-label="Offerable">
        {(swapDay.data?.offerableItems ?? []).map((item) => (
          <li key={item.id}>{item.title}</li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() =>
          create.mutate({
            title: 'Camping lantern',
            description: 'Bright, with batteries',
            category: 'rvs+camp',
            isService: false,
            imageUrl: null,
            estimatedValue: '',
            isActive: true,
          })
        }
      >
        Add Item
      </button>
    </>
  );
}

describe('adding an item (issue 28)', () => {
  it('shows the new item under a swap day’s "Your items" without a reload', async () => {
    const offerable: Array<{ id: number; title: string }> = [];
    const api = stubApi({
      'GET /api/swap-days/7': () => jsonResponse({ id: 7, offerableItems: [...offerable] }),
      'POST /api/items': () => {
        offerable.push({ id: 41, title: 'Camping lantern' });
        return jsonResponse({ id: 41, title: 'Camping lantern' }, 201);
      },
    });
    renderWithProviders(<SwapDayWithAddItem />);
    await vi.waitFor(() => expect(api.callsTo('GET /api/swap-days/7')).toHaveLength(1));
    expect(screen.queryByText('Camping lantern')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add Item' }));

    expect(await screen.findByText('Camping lantern')).toBeInTheDocument();
    expect(api.callsTo('GET /api/swap-days/7')).toHaveLength(2);
    expect(api.unhandled).toEqual([]);
  });
});
