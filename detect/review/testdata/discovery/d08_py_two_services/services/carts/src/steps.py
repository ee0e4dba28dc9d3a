# Two services, each a src/ package with a module of the same name: each
# app's import resolves to its own service's module.
def settle(ctx, item):
    return {"service": "carts", "item": item["id"]}
