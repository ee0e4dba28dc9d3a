//go:build cgo

package csharp

// implicitUsings are the namespaces the .NET SDK imports into every file
// of a project with <ImplicitUsings>enable</ImplicitUsings> (the default
// in new projects: Microsoft.NET.Sdk's System, System.Collections.Generic,
// System.IO, System.Linq, System.Net.Http, System.Threading and
// System.Threading.Tasks; the Web and Worker SDKs add logging and JSON).
var implicitUsings = []string{
	"System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http",
	"System.Threading", "System.Threading.Tasks", "System.Net.Http.Json", "Microsoft.Extensions.Logging",
}

// knownTypes maps the simple names of the library types twice
// understands to the namespaces that declare them. A name in a file
// resolves to the namespace its using directives import, else (when only
// one declares it) to that one: a global using in another file imports
// it.
var knownTypes = map[string][]string{
	// System
	"Guid": {"System"}, "DateTime": {"System"}, "DateTimeOffset": {"System"}, "Random": {"System"},
	"Environment": {"System"}, "TimeSpan": {"System"}, "Ulid": {"System"}, "TimeProvider": {"System"},
	"Convert": {"System"}, "Math": {"System"}, "String": {"System"}, "Exception": {"System"},
	"List": {"System.Collections.Generic"}, "Dictionary": {"System.Collections.Generic"}, "IEnumerable": {"System.Collections.Generic"},
	"IReadOnlyList": {"System.Collections.Generic"}, "IList": {"System.Collections.Generic"}, "HashSet": {"System.Collections.Generic"},
	"IDictionary": {"System.Collections.Generic"}, "IReadOnlyDictionary": {"System.Collections.Generic"},
	"RandomNumberGenerator": {"System.Security.Cryptography"},
	"Stopwatch":             {"System.Diagnostics"},
	"Task":                  {"System.Threading.Tasks"}, "ValueTask": {"System.Threading.Tasks"},
	"Thread": {"System.Threading"}, "Interlocked": {"System.Threading"},
	"File": {"System.IO"}, "StreamWriter": {"System.IO"}, "FileStream": {"System.IO"},
	"HttpClient": {"System.Net.Http"}, "HttpRequestMessage": {"System.Net.Http"}, "HttpMethod": {"System.Net.Http"},
	"HttpResponseMessage": {"System.Net.Http"}, "StringContent": {"System.Net.Http"}, "IHttpClientFactory": {"System.Net.Http"},
	"JsonContent": {"System.Net.Http.Json"}, "HttpStatusCode": {"System.Net"},
	"SmtpClient": {"System.Net.Mail", "MailKit.Net.Smtp"}, "MailMessage": {"System.Net.Mail"},
	"JsonSerializer": {"System.Text.Json"},
	"ILogger":        {"Microsoft.Extensions.Logging"}, "ILoggerFactory": {"Microsoft.Extensions.Logging"},
	// Dapr
	"DaprClient": {"Dapr.Client"}, "StateOptions": {"Dapr.Client"}, "ConcurrencyMode": {"Dapr.Client"},
	"WorkflowActivity": {"Dapr.Workflow"}, "Workflow": {"Dapr.Workflow"}, "WorkflowActivityContext": {"Dapr.Workflow"},
	"WorkflowContext": {"Dapr.Workflow"}, "WorkflowTaskOptions": {"Dapr.Workflow"}, "ChildWorkflowTaskOptions": {"Dapr.Workflow"},
	"WorkflowRetryPolicy": {"Dapr.Workflow"}, "WorkflowRuntimeOptions": {"Dapr.Workflow"}, "DaprWorkflowClient": {"Dapr.Workflow"},
	// Polly
	"Policy": {"Polly"}, "IAsyncPolicy": {"Polly"}, "ISyncPolicy": {"Polly"}, "AsyncPolicy": {"Polly"},
	"ResiliencePipeline": {"Polly"}, "ResiliencePipelineBuilder": {"Polly"}, "ResiliencePipelineProvider": {"Polly.Registry"},
	"AsyncRetryPolicy": {"Polly.Retry"}, "RetryPolicy": {"Polly.Retry"}, "RetryStrategyOptions": {"Polly.Retry"},
	"HttpPolicyExtensions": {"Polly.Extensions.Http"},
	// Payments, email, SMS
	"ChargeService": {"Stripe"}, "PaymentIntentService": {"Stripe"}, "RefundService": {"Stripe"}, "TransferService": {"Stripe"},
	"PayoutService": {"Stripe"}, "InvoiceService": {"Stripe"}, "CustomerService": {"Stripe"}, "RequestOptions": {"Stripe"},
	// Stripe.net's other resources (lib_stripe.go says what each does).
	"ProductService": {"Stripe"}, "PriceService": {"Stripe"}, "SubscriptionService": {"Stripe"}, "SubscriptionItemService": {"Stripe"},
	"SubscriptionScheduleService": {"Stripe"}, "PaymentMethodService": {"Stripe"}, "SetupIntentService": {"Stripe"},
	"InvoiceItemService": {"Stripe"}, "CouponService": {"Stripe"}, "PromotionCodeService": {"Stripe"}, "PlanService": {"Stripe"},
	"CreditNoteService": {"Stripe"}, "QuoteService": {"Stripe"}, "TaxRateService": {"Stripe"}, "TaxIdService": {"Stripe"},
	"AccountService": {"Stripe"}, "AccountLinkService": {"Stripe"}, "PaymentLinkService": {"Stripe"}, "ShippingRateService": {"Stripe"},
	"TokenService": {"Stripe"}, "SourceService": {"Stripe"}, "FileService": {"Stripe"}, "FileLinkService": {"Stripe"},
	"WebhookEndpointService": {"Stripe"}, "TopupService": {"Stripe"}, "ApplicationFeeRefundService": {"Stripe"},
	"SessionService": {"Stripe.Checkout", "Stripe.BillingPortal"},
	"MeterService":   {"Stripe.Billing"}, "MeterEventService": {"Stripe.Billing"}, "MeterEventAdjustmentService": {"Stripe.Billing"},
	"SendGridClient": {"SendGrid"}, "ISendGridClient": {"SendGrid"}, "MailHelper": {"SendGrid.Helpers.Mail"},
	"SendGridMessage": {"SendGrid.Helpers.Mail"}, "TwilioClient": {"Twilio"},
	"MessageResource":             {"Twilio.Rest.Api.V2010.Account"},
	"IAmazonSimpleEmailService":   {"Amazon.SimpleEmail"},
	"IAmazonSimpleEmailServiceV2": {"Amazon.SimpleEmailV2"},
	// Data and messaging
	"SqlCommand": {"Microsoft.Data.SqlClient", "System.Data.SqlClient"}, "SqlConnection": {"Microsoft.Data.SqlClient", "System.Data.SqlClient"},
	"NpgsqlCommand": {"Npgsql"}, "NpgsqlConnection": {"Npgsql"}, "NpgsqlDataSource": {"Npgsql"},
	"IDbConnection": {"System.Data"}, "DbConnection": {"System.Data.Common"},
	"IDatabase": {"StackExchange.Redis"}, "IConnectionMultiplexer": {"StackExchange.Redis"}, "When": {"StackExchange.Redis"},
	"ServiceBusSender": {"Azure.Messaging.ServiceBus"}, "ServiceBusClient": {"Azure.Messaging.ServiceBus"},
	"ServiceBusMessage": {"Azure.Messaging.ServiceBus"},
	"IPublishEndpoint":  {"MassTransit"}, "IBus": {"MassTransit"}, "NewId": {"MassTransit"},
	"IMongoCollection": {"MongoDB.Driver"}, "Builders": {"MongoDB.Driver"},
}

// rootNamespaces are the first names of the namespaces twice knows:
// System.Guid.NewGuid written out in full resolves through them.
var rootNamespaces = map[string]bool{
	"System": true, "Microsoft": true, "Dapr": true, "Polly": true, "Stripe": true, "SendGrid": true, "Twilio": true,
	"Azure": true, "Amazon": true, "Npgsql": true, "Dapper": true, "StackExchange": true, "MassTransit": true,
	"Confluent": true, "MailKit": true, "MimeKit": true, "MongoDB": true,
}

// returnTypes names what a few factory methods return, so a variable
// made by one is typed: IHttpClientFactory.CreateClient is an HttpClient.
var returnTypes = map[string]string{
	"System.Net.Http.IHttpClientFactory.CreateClient":          "HttpClient",
	"StackExchange.Redis.IConnectionMultiplexer.GetDatabase":   "IDatabase",
	"Azure.Messaging.ServiceBus.ServiceBusClient.CreateSender": "ServiceBusSender",
}

// predefined are C#'s keyword types: members of System.
var predefined = map[string]bool{
	"string": true, "int": true, "long": true, "short": true, "byte": true, "bool": true, "decimal": true,
	"double": true, "float": true, "object": true, "char": true, "uint": true, "ulong": true, "ushort": true,
	"sbyte": true, "nint": true, "nuint": true, "dynamic": true,
}
