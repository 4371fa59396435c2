"""The floor terminal's cashier and floor staff features: vouchers (ticket-out,
ticket-in, the cage), attendant calls and the operator console's live alarms.

No SQL here (the vouchers table is :mod:`kiosk_ui.store.vouchers`) and no web
framework (the routes are :mod:`kiosk_ui.web.routes.cashier` and ``alarms``).
"""
