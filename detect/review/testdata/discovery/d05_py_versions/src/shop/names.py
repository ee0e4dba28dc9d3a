# The registered names live in one module.
ORDER_FLOW = "order_flow"
REFUND_FLOW = "refund" + "_flow"
