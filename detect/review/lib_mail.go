package review

import "strings"

// Email and SMS: smtplib and Go's net/smtp, the providers' SDKs
// (SendGrid, Postmark, Mailgun, SES), .NET's SmtpClient and MailKit, and
// Twilio's messages. A second run sends the message again unless the
// body records a dedupe key before it (a guard earlier in the body) or
// the provider takes a key.
func libMail() library {
	const again = "sends it again"
	return library{
		name:   "Email and SMS",
		source: "Python smtplib (send_message, sendmail); Go net/smtp (SendMail); sendgrid/sendgrid-python and sendgrid-csharp (send, SendEmailAsync); dotnet/runtime System.Net.Mail SmtpClient; jstedfast/MailKit SmtpClient.Send; twilio/twilio-python (messages.create), twilio-go (CreateMessage), twilio-csharp (MessageResource.Create)",
		modules: map[Lang][]string{
			LangPython: {"smtplib", "email", "sendgrid", "twilio"},
			LangGo:     {"github.com/sendgrid/", "github.com/twilio/"},
			LangCSharp: {"SendGrid", "Twilio", "MailKit", "MimeKit"},
		},
		rows: []api{
			// .NET.
			{lang: LangCSharp, methods: []string{"Create", "CreateAsync"}, when: func(c *libCall) bool { return strings.HasSuffix(c.ref, "MessageResource."+c.m) },
				kind: effEmail, what: "SMS (Twilio MessageResource.{m})", twice: again},
			{lang: LangCSharp, methods: []string{"SendEmailAsync", "SendMailAsync"}, kind: effEmail, what: "email ({recv}.{m})", twice: again},
			{lang: LangCSharp, methods: []string{"Send", "SendAsync"}, when: func(c *libCall) bool {
				return strings.Contains(c.ref, "SmtpClient") || strings.Contains(c.ref, "SendGrid") || textHas(c.recv, "smtp", "mail", "sendgrid")
			}, kind: effEmail, what: "email ({recv}.{m})", twice: again},
			// Every language.
			{methods: []string{"SendMail", "sendmail"}, kind: effEmail, what: "email ({m})", twice: again},
			{methods: []string{"send_message"}, recv: []string{"smtp", "server", "mail", "conn"}, kind: effEmail, what: "email ({m})", twice: again},
			{methods: []string{"send", "Send"}, recv: []string{"sendgrid", "sg", "mail", "postmark", "mailgun", "ses"}, kind: effEmail, what: "email ({recv}.{m})", twice: again},
			{methods: []string{"send_email", "SendEmail", "send_templated_email", "SendTemplatedEmail"}, kind: effEmail, what: "email ({m})", twice: again},
			// Twilio's client.messages.create; an LLM client spells it alike
			// (lib_llm.go), so the file must import Twilio.
			{methods: []string{"create"}, hasRecv: true, imports: []string{"twilio"}, when: func(c *libCall) bool { return strings.HasSuffix(strings.ToLower(c.recv.Name), "messages") },
				kind: effEmail, what: "SMS ({recvText}.create)", twice: again},
			{methods: []string{"CreateMessage"}, imports: []string{"github.com/twilio/"}, kind: effEmail, what: "SMS (CreateMessage)", twice: again},
		},
	}
}
