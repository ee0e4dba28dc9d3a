def open_invoice(ctx, user):
    return {"invoice": user["id"]}


def _format(amount, currency):
    return f"{amount} {currency}"


def totals(*amounts):
    return sum(amounts)


def close_invoice(invoice, *, reason=None):
    return {"closed": invoice, "reason": reason}
