from activities.mail import send_welcome


def onboard(ctx, user):
    yield ctx.call_activity(send_welcome, input=user)
    yield ctx.call_activity("grant_trial", input=user)
