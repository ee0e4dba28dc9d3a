def send_welcome(ctx, user):
    return {"sent": user["email"]}
