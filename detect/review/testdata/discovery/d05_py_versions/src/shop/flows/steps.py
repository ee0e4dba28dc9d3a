def pack(ctx, order):
    return {"packed": order["id"]}
