import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { Id, strictObject } from '../../../platform/http/schemas.ts';
import type { AccountsService } from '../../accounts/index.ts';
import type { WalletService } from '../service.ts';
import { walletLedgerView } from '../views.ts';

export const walletAdminRoutes = (wallet: WalletService, accounts: AccountsService) => [
  defineAdminRoute({
    method: 'GET',
    url: '/partners/:partner_id/wallet',
    summary: "A partner's wallet: balance, credit limit and the latest 100 ledger entries",
    // Money: finance and admin only.
    roles: ['finance', 'admin'],
    params: strictObject({ partner_id: Id }),
    handler: async ({ params }) => {
      const partner = await accounts.getPartner(params.partner_id);
      return {
        body: walletLedgerView(
          partner.id,
          partner.credit_limit_pesewas,
          await wallet.ledgerOf(partner.id),
        ),
      };
    },
  }),
];
