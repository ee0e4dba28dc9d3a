// A function registered as an activity: it emails with SmtpClient and no
// dedupe record.
using System.Net.Mail;
using Dapr.Workflow;

var builder = Host.CreateApplicationBuilder(args);
builder.Services.AddDaprWorkflow(options =>
{
    options.RegisterActivity<string, bool>("NotifyCustomer", async (context, email) =>
    {
        using var smtp = new SmtpClient("smtp.example.com");
        await smtp.SendMailAsync(new MailMessage("shop@example.com", email, "Shipped", "Your order shipped.")); // want: unkeyed-side-effect
        return true;
    });
});
builder.Build().Run();
