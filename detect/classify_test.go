package detect

import (
	"reflect"
	"testing"

	"github.com/twice-cli/twice/catalyst"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ChargeCard", []string{"charge", "card"}},
		{"charge_card", []string{"charge", "card"}},
		{"send-email", []string{"send", "email"}},
		{"HTTPPostJSON", []string{"http", "post", "json"}},
		{"sendSMS", []string{"send", "sms"}},
		{"Send2FACode", []string{"send", "2", "fa", "code"}},
		{"orders.v2.CreateOrder", []string{"orders", "v", "2", "create", "order"}},
		{"  Get  Quote ", []string{"get", "quote"}},
		{"ÉmettreFacture", []string{"émettre", "facture"}},
		{"charge\x1b[2Jcard", []string{"charge", "2", "jcard"}},
		{"Charge\u202eCard", []string{"charge", "card"}},
		{"", nil},
		{"---", nil},
		{"A", []string{"a"}},
		{"ABC", []string{"abc"}},
		{"bad\xff\xfebytes", []string{"bad", "bytes"}},
	}
	for _, tt := range tests {
		if got := SplitWords(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClassifyActivity(t *testing.T) {
	tests := []struct {
		name string
		want ActivityClass
	}{
		{"ChargeCard", ClassSideEffect},
		{"charge_card", ClassSideEffect},
		// Verbs that are nouns after a read: they write where a verb goes.
		{"RecordPayment", ClassSideEffect},
		{"IssueRefund", ClassSideEffect},
		{"StartJob", ClassSideEffect},
		{"ScheduleDelivery", ClassSideEffect},
		{"RegisterUser", ClassSideEffect},
		{"PushNotification", ClassSideEffect},
		{"PlaceOrder", ClassSideEffect},
		{"AlertOnCall", ClassSideEffect},
		{"ValidateAndRecord", ClassSideEffect},
		{"GetRecord", ClassReadOnly},
		{"FetchIssue", ClassReadOnly},
		{"GetStartTime", ClassReadOnly},
		{"LoadSchedule", ClassReadOnly},
		{"GetPushToken", ClassReadOnly},
		{"GetPlace", ClassReadOnly},
		{"send-email", ClassSideEffect},
		{"SendEmail", ClassSideEffect},
		{"send_sms", ClassSideEffect},
		{"NotifyCustomer", ClassSideEffect},
		{"PublishOrderPlaced", ClassSideEffect},
		{"HTTPPostJSON", ClassSideEffect},
		{"InsertLedgerRow", ClassSideEffect},
		{"IncrementCounter", ClassSideEffect},
		{"ShipOrder", ClassSideEffect},
		{"BookFlight", ClassSideEffect},
		{"ReserveStock", ClassSideEffect},
		{"OrderPizza", ClassSideEffect},
		{"RefundPayment", ClassSideEffect},
		{"TransferFunds", ClassSideEffect},
		{"EmailUser", ClassSideEffect},
		{"ProcessPayment", ClassSideEffect},
		{"ValidateAndCharge", ClassSideEffect},
		{"CheckThenSend", ClassSideEffect},
		{"DebitAccount", ClassSideEffect},
		{"EnqueueJob", ClassSideEffect},
		{"ProvisionCluster", ClassSideEffect},
		{"GetOrder", ClassReadOnly},
		{"fetch_quote", ClassReadOnly},
		{"ReadConfig", ClassReadOnly},
		{"ListInvoices", ClassReadOnly},
		{"LookupCustomer", ClassReadOnly},
		{"QueryBalance", ClassReadOnly},
		{"ValidateOrder", ClassReadOnly},
		{"ValidateEmail", ClassReadOnly},
		{"CheckInventory", ClassReadOnly},
		{"ComputeTotals", ClassReadOnly},
		{"RenderTemplate", ClassReadOnly},
		{"CalculateTax", ClassReadOnly},
		{"SearchProducts", ClassReadOnly},
		{"OrderLookup", ClassReadOnly},
		{"CreditCheck", ClassReadOnly},
		{"IsEligible", ClassReadOnly},
		{"DeleteSession", ClassIdempotent},
		{"remove_item", ClassIdempotent},
		{"PutDocument", ClassIdempotent},
		{"SetStatus", ClassIdempotent},
		{"UpsertProfile", ClassIdempotent},
		{"DeleteAndNotify", ClassSideEffect},
		{"Reconcile", ClassUnknown},
		{"Step1", ClassUnknown},
		// A read verb followed by a write verb writes; read-only is earned.
		{"ValidateAndSave", ClassSideEffect},
		{"FetchAndStore", ClassSideEffect},
		{"ComputeAndSave", ClassSideEffect},
		{"CheckAndStore", ClassSideEffect},
		{"GetOrCreateUser", ClassSideEffect},
		{"fetch_then_log", ClassSideEffect},
		{"customer_lookup_and_store", ClassSideEffect},
		{"ValidateAndReconcile", ClassUnknown},
		{"ReconcileAndValidate", ClassUnknown},
		{"GetUserAndFrobnicate", ClassUnknown},
		{"GetAndDelete", ClassIdempotent},
		{"DeleteAndRecreate", ClassUnknown},
		{"OrderAndCheck", ClassSideEffect},
		// "audit" is not a read; "log" writes where a verb goes.
		{"LogAudit", ClassSideEffect},
		{"AuditCustomer", ClassUnknown},
		{"GetAuditLog", ClassReadOnly},
		// Writes the name classifier did not know.
		{"SaveUser", ClassSideEffect},
		{"PersistEvent", ClassSideEffect},
		{"SyncLedger", ClassSideEffect},
		{"OpenAccount", ClassSideEffect},
		{"release_inventory", ClassSideEffect},
		{"ConfirmBooking", ClassSideEffect},
		{"ExecuteTrade", ClassSideEffect},
		{"ImportCustomers", ClassSideEffect},
		{"TrackShipment", ClassSideEffect},
		{"ApplyDiscount", ClassSideEffect},
		{"InvokeWebhook", ClassSideEffect},
		{"AssignDriver", ClassSideEffect},
		{"LockSeat", ClassSideEffect},
		{"ReversePayment", ClassSideEffect},
		{"VoidInvoice", ClassSideEffect},
		{"StoreInvoice", ClassSideEffect},
		{"ExportReport", ClassSideEffect},
		// ... and stay nouns where no verb goes.
		{"GetStoreHours", ClassReadOnly},
		{"GetSyncStatus", ClassReadOnly},
		{"SyncStatus", ClassReadOnly},
		{"ListOpenOrders", ClassReadOnly},
		{"GetReleaseNotes", ClassReadOnly},
		{"ReadLog", ClassReadOnly},
		{"GetLockOwner", ClassReadOnly},
		{"GetVoidReason", ClassReadOnly},
		{"ReverseGeocode", ClassReadOnly},
		{"GetExchangeRate", ClassReadOnly},
		{"customer_lookup", ClassReadOnly},
		{"", ClassUnknown},
		{"\x1b[2J", ClassUnknown},
	}
	for _, tt := range tests {
		if got := ClassifyActivity(tt.name); got != tt.want {
			t.Errorf("ClassifyActivity(%q) = %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestClassifierOverridesAreCaseInsensitive(t *testing.T) {
	c := newClassifier(map[string]ActivityClass{"  Reconcile ": ClassSideEffect, "GETORDER": ClassSideEffect,
		"Bogus": ActivityClass(99)})
	for name, want := range map[string]ActivityClass{
		"reconcile": ClassSideEffect, "Reconcile": ClassSideEffect, "GetOrder": ClassSideEffect,
		"Bogus": ClassUnknown, "FetchQuote": ClassReadOnly,
	} {
		if got := c.class(name); got != want {
			t.Errorf("class(%q) = %s, want %s", name, got, want)
		}
	}
}

func TestClassifyFailure(t *testing.T) {
	tests := []struct {
		typ, msg string
		want     FailureClass
	}{
		// Go
		{"*url.Error", `Post "https://api.stripe.com/v1/charges": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, FailureAmbiguous},
		{"*errors.errorString", "payment gateway returned 503 Service Unavailable", FailureAmbiguous},
		{"*fmt.wrapError", "read tcp 10.0.0.4:51234->52.1.2.3:443: read: connection reset by peer", FailureAmbiguous},
		{"*errors.errorString", "unexpected EOF", FailureAmbiguous},
		{"*url.Error", `Post "https://x": write tcp 10.0.0.4:1->1.2.3.4:443: write: broken pipe`, FailureAmbiguous},
		{"*status.Error", "rpc error: code = Unavailable desc = connection error", FailureAmbiguous},
		{"*status.Error", "rpc error: code = DeadlineExceeded desc = context deadline exceeded", FailureAmbiguous},
		{"*status.Error", `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.0.0.9:50051: connect: connection refused"`, FailureSafe},
		{"*url.Error", `Post "https://x": dial tcp: lookup api.example.com on 10.0.0.2:53: no such host`, FailureSafe},
		{"*url.Error", `Post "https://x": dial tcp 10.1.1.1:443: i/o timeout`, FailureSafe},
		{"*errors.errorString", "stripe: 429 Too Many Requests", FailureSafe},
		{"*status.Error", "rpc error: code = InvalidArgument desc = amount must be positive", FailurePermanent},
		{"*status.Error", "rpc error: code = ResourceExhausted desc = quota", FailureSafe},
		{"*errors.errorString", "unexpected status code 404", FailurePermanent},
		{"*errors.errorString", "unexpected status code 502", FailureAmbiguous},
		// A panic may come after the write: whatever it says, it is ambiguous.
		{"TaskActivityPanic", "panic: runtime error: index out of range [3] with length 2", FailureAmbiguous},
		{"TaskActivityPanic", "panic: something odd", FailureAmbiguous},
		// SMTP: a 5xx reply is a permanent rejection, a 4xx a refusal before
		// anything was accepted; no reply code leaves the other rules.
		{"*errors.errorString", "smtp: 550 mailbox unavailable", FailurePermanent},
		{"*textproto.Error", "550 5.1.1 The email account that you tried to reach does not exist.", FailurePermanent},
		{"*textproto.Error", "421 4.7.0 Try again later, closing connection.", FailureSafe},
		{"*errors.errorString", "smtp: 503 5.5.1 Error: need RCPT command", FailurePermanent},
		{"*net.OpError", "smtp: dial tcp 10.0.0.5:587: i/o timeout", FailureSafe},
		{"*errors.errorString", "smtp: read tcp 10.0.0.4:5501->10.0.0.5:587: read: connection reset by peer", FailureAmbiguous},
		{"SMTPRecipientsRefused", "{'dana@example.com': (550, b'5.1.1 <dana@example.com>: Recipient address rejected: User unknown')}", FailurePermanent},
		{"SMTPDataError", "(451, b'4.3.0 Temporary system problem. Try again later.')", FailureSafe},
		{"SMTPServerDisconnected", "Connection unexpectedly closed", FailureAmbiguous},
		{"System.Net.Mail.SmtpFailedRecipientException", "Mailbox unavailable. The server response was: 5.1.1 User unknown", FailurePermanent},
		{"System.Net.Mail.SmtpFailedRecipientException", "Mailbox unavailable. The server response was: 4.2.1 Mailbox busy, try later", FailureSafe},
		{"System.Net.Mail.SmtpException", "Mailbox unavailable.", FailurePermanent},
		{"com.sun.mail.smtp.SMTPAddressFailedException", "550 5.1.1 <x@example.com>... User unknown", FailurePermanent},
		{"Error", "Can't send mail - all recipients were rejected: 550 5.1.1 <x@example.com>: Recipient address rejected", FailurePermanent},
		{"*errors.errorString", "mail service 5.1.1 upgrade pending: 503 Service Unavailable", FailureAmbiguous},
		// Python
		{"ReadTimeout", "HTTPSConnectionPool(host='api.stripe.com', port=443): Read timed out. (read timeout=30)", FailureAmbiguous},
		{"", "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='api.stripe.com', port=443): Read timed out. (read timeout=30)", FailureAmbiguous},
		{"ConnectTimeout", "HTTPSConnectionPool(host='x', port=443): Max retries exceeded with url: / (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object>, 'Connection to x timed out. (connect timeout=10)'))", FailureSafe},
		{"ConnectionError", "HTTPSConnectionPool(host='x', port=443): Max retries exceeded with url: / (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object>: Failed to establish a new connection: [Errno 111] Connection refused'))", FailureSafe},
		{"ConnectionError", "('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))", FailureAmbiguous},
		{"ConnectionError", "POST https://pay.example/charges: 503 Service Unavailable", FailureAmbiguous},
		{"ConnectionResetError", "[Errno 104] Connection reset by peer", FailureAmbiguous},
		{"HTTPError", "404 Client Error: Not Found for url: https://api.example.com/orders/9", FailurePermanent},
		{"HTTPError", "429 Client Error: Too Many Requests for url: https://api.example.com/", FailureSafe},
		{"ValueError", "invalid literal for int() with base 10: 'abc'", FailurePermanent},
		{"ValueError", "Timeout value connect was <object>, but it must be an int", FailurePermanent},
		{"KeyError", "'order_id'", FailurePermanent},
		{"CardError", "Request req_123: Your card was declined.", FailurePermanent},
		{"Exception", "insufficient funds in account acc_9", FailurePermanent},
		{"gaierror", "[Errno -2] Name or service not known", FailureSafe},
		{"TimeoutError", "", FailureAmbiguous},
		// .NET
		{"System.Threading.Tasks.TaskCanceledException", "The request was canceled due to the configured HttpClient.Timeout of 30 seconds elapsing.", FailureAmbiguous},
		{"", "System.Threading.Tasks.TaskCanceledException: The request was canceled due to the configured HttpClient.Timeout of 30 seconds elapsing.", FailureAmbiguous},
		{"System.Net.Http.HttpRequestException", "Response status code does not indicate success: 503 (Service Unavailable).", FailureAmbiguous},
		{"System.Net.Http.HttpRequestException", "Response status code does not indicate success: 422 (Unprocessable Entity).", FailurePermanent},
		{"System.Net.Http.HttpRequestException", "No connection could be made because the target machine actively refused it. (api:443)", FailureSafe},
		{"System.Net.Http.HttpRequestException", "No such host is known. (api.example.com:443)", FailureSafe},
		{"System.IO.IOException", "Unable to read data from the transport connection: An existing connection was forcibly closed by the remote host.", FailureAmbiguous},
		{"System.ArgumentException", "Amount must be greater than zero. (Parameter 'amount')", FailurePermanent},
		{"System.ArgumentNullException", "Value cannot be null. (Parameter 'customerId')", FailurePermanent},
		// Java
		{"java.net.SocketTimeoutException", "Read timed out", FailureAmbiguous},
		{"", "java.net.SocketTimeoutException: Read timed out", FailureAmbiguous},
		{"java.net.SocketTimeoutException", "connect timed out", FailureAmbiguous},
		{"java.net.ConnectException", "Connection refused", FailureSafe},
		{"java.net.UnknownHostException", "api.example.com", FailureSafe},
		{"io.grpc.StatusRuntimeException", "UNAVAILABLE: io exception", FailureAmbiguous},
		{"io.grpc.StatusRuntimeException", "DEADLINE_EXCEEDED: deadline exceeded after 9.99s", FailureAmbiguous},
		{"io.grpc.StatusRuntimeException", "NOT_FOUND: order 77 does not exist", FailurePermanent},
		{"java.io.IOException", "Server returned HTTP response code: 503 for URL: https://api.example.com", FailureAmbiguous},
		{"java.lang.IllegalArgumentException", "currency must be ISO 4217", FailurePermanent},
		// Node
		{"Error", "socket hang up", FailureAmbiguous},
		{"Error", "connect ECONNREFUSED 127.0.0.1:443", FailureSafe},
		{"Error", "getaddrinfo ENOTFOUND api.example.com", FailureSafe},
		{"Error", "read ECONNRESET", FailureAmbiguous},
		// Business rejections and validation
		{"", "card_declined: Your card was declined.", FailurePermanent},
		{"", "validation failed: email is required", FailurePermanent},
		{"", "order 429 not found", FailurePermanent},
		{"", "payment rejected by issuer", FailurePermanent},
		{"", "HTTP 401 Unauthorized", FailurePermanent},
		{"", "HTTP 408 Request Timeout", FailureAmbiguous},
		{"", "status 409: conflict", FailurePermanent},
		{"", "something went wrong", FailureUnclassified},
		{"", "", FailureUnclassified},
		{"", "\x1b[2Jtimeout\u202e", FailureAmbiguous},
	}
	for _, tt := range tests {
		f := &catalyst.Failure{Type: tt.typ, Message: tt.msg}
		if got := ClassifyFailure(f); got != tt.want {
			t.Errorf("ClassifyFailure(%q, %q) = %s, want %s", tt.typ, tt.msg, got, tt.want)
		}
	}
}

func TestClassifyFailureFlagsAndInner(t *testing.T) {
	if got := ClassifyFailure(nil); got != FailureUnclassified {
		t.Errorf("nil: %s", got)
	}
	nr := &catalyst.Failure{Type: "TimeoutError", Message: "timed out", NonRetriable: true}
	if got := ClassifyFailure(nr); got != FailurePermanent {
		t.Errorf("non-retriable: %s", got)
	}
	wrapped := &catalyst.Failure{Type: "TaskFailedException", Message: "activity failed",
		Inner: &catalyst.Failure{Type: "ReadTimeout", Message: "read timed out"}}
	if got := ClassifyFailure(wrapped); got != FailureAmbiguous {
		t.Errorf("inner: %s", got)
	}
	loop := &catalyst.Failure{Message: "x"}
	chain := loop
	for i := 0; i < 20; i++ {
		chain = &catalyst.Failure{Message: "y", Inner: chain}
	}
	if got := ClassifyFailure(chain); got != FailureUnclassified {
		t.Errorf("deep chain: %s", got)
	}
}

func FuzzSplitWordsAndClassify(f *testing.F) {
	for _, s := range []string{"ChargeCard", "HTTPPostJSON", "send-email", "\x1b]0;x\x07", "bad\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, w := range SplitWords(name) {
			if w == "" {
				t.Fatalf("empty word from %q", name)
			}
		}
		if c := ClassifyActivity(name); !c.valid() {
			t.Fatalf("class %q", c)
		}
		if c := ClassifyFailure(&catalyst.Failure{Type: name, Message: name}); c == 0 {
			t.Fatal("empty failure class")
		}
	})
}
