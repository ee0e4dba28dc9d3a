// Sends a receipt through SendGrid with no dedupe record: a retry emails
// the customer twice.
using Dapr.Workflow;
using SendGrid;
using SendGrid.Helpers.Mail;

namespace Receipts;

public sealed record Receipt(string OrderId, string Email, decimal Total);

public sealed class SendReceiptActivity(ISendGridClient sendGrid) : WorkflowActivity<Receipt, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Receipt receipt)
    {
        var message = MailHelper.CreateSingleEmail(
            new EmailAddress("shop@example.com"), new EmailAddress(receipt.Email),
            $"Your order {receipt.OrderId}", $"Total: {receipt.Total:C}", null);
        var response = await sendGrid.SendEmailAsync(message); // want: unkeyed-side-effect
        return response.IsSuccessStatusCode;
    }
}
