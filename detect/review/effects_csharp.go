package review

import (
	"regexp"
	"strings"
)

// classifyCSharp classifies calls into the .NET libraries services use:
// HttpClient and RestSharp, Stripe.net, SendGrid, Twilio, SmtpClient and
// MailKit, Dapr's DaprClient, Azure Service Bus, Confluent.Kafka,
// MassTransit, StackExchange.Redis, EF Core, ADO.NET, the MongoDB driver
// and System.IO. It returns an effect of kind effNone for any other call.
func classifyCSharp(call *Expr, values func(string) *Expr) effect {
	m, ref, recv := call.Method(), call.Ref, call.Receiver()
	e := effect{call: call}
	isNew := call.Op == "new"
	set := func(k effectKind, what string) effect {
		e.kind, e.what = k, what
		return e
	}
	setHTTP := func(k effectKind, what string) effect {
		e.http = true
		return set(k, what)
	}
	switch {
	// ADO.NET: cmd.CommandText = "INSERT …"; await cmd.ExecuteNonQueryAsync().
	case (strings.HasPrefix(m, "ExecuteNonQuery") || strings.HasPrefix(m, "ExecuteScalar") || strings.HasPrefix(m, "ExecuteReader")) && recv != nil && values != nil:
		if s := sqlText(values(recv.Text+".CommandText"), values); s != "" {
			if k, what := classifySQL(s); k != effNone {
				return set(k, what)
			}
		}
	// HTTP.
	case isNew && call.Name == "HttpRequestMessage":
		method := call.Arg(0)
		if method == nil {
			method = call.Keyword("Method")
		}
		url := call.Arg(1)
		if url == nil {
			url = call.Keyword("RequestUri")
		}
		switch {
		case mentionsMethod(method, "Post"):
			return setHTTP(effPost, "POST "+urlText(url, nil))
		case mentionsMethod(method, "Put"), mentionsMethod(method, "Delete"):
			return setHTTP(effIdempotent, strings.ToUpper(method.Name))
		case mentionsMethod(method, "Get"):
			return setHTTP(effRead, "GET "+urlText(url, nil))
		}
	case isNew && call.Name == "RestRequest":
		for _, a := range append(append([]*Expr(nil), call.Args...), call.Keyword("Method")) {
			if mentionsMethod(a, "Post") {
				return setHTTP(effPost, "POST "+urlText(call.Arg(0), nil))
			}
		}
	case m == "PostAsync" || m == "PostAsJsonAsync" || m == "PostJsonAsync" || m == "ExecutePostAsync" || m == "PostAsync" && recv != nil:
		return setHTTP(effPost, "POST "+urlText(call.Arg(0), call.Keyword("requestUri")))
	case m == "PutAsync" || m == "PutAsJsonAsync" || m == "DeleteAsync" || m == "PutJsonAsync":
		return setHTTP(effIdempotent, strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(m, "Async"), "AsJson")))
	case m == "GetAsync" || m == "GetFromJsonAsync" || m == "GetStringAsync" || m == "GetByteArrayAsync" || m == "GetStreamAsync":
		return setHTTP(effRead, "GET "+urlText(call.Arg(0), nil))
	// Payments: Stripe.net's services.
	case strings.HasPrefix(ref, "Stripe.") && isCreateVerb(m):
		e.payment = true
		return set(effPost, "Stripe "+strings.TrimPrefix(ref, "Stripe."))
	// SMS and email.
	case strings.HasSuffix(ref, "MessageResource.Create") || strings.HasSuffix(ref, "MessageResource.CreateAsync"):
		return set(effEmail, "SMS (Twilio MessageResource."+m+")")
	case m == "SendEmailAsync" || m == "SendMailAsync":
		return set(effEmail, "email ("+recvName(recv)+"."+m+")")
	case (m == "Send" || m == "SendAsync") && (strings.Contains(ref, "SmtpClient") || strings.Contains(ref, "SendGrid") || textHas(recv, "smtp", "mail", "sendgrid")):
		return set(effEmail, "email ("+recvName(recv)+"."+m+")")
	// Publishing.
	case m == "PublishEventAsync" || m == "BulkPublishEventAsync" || m == "PublishByteEventAsync":
		return set(effPublish, "publish ("+m+")")
	case m == "SendMessageAsync" || m == "SendMessagesAsync" || m == "ScheduleMessageAsync":
		return set(effPublish, "publish ("+recvName(recv)+"."+m+")")
	case m == "ProduceAsync" || m == "Produce":
		return set(effPublish, "publish (Kafka "+m+")")
	case (m == "Publish" || m == "Send" || m == "PublishAsync") && (strings.HasPrefix(ref, "MassTransit.") || textHas(recv, "publish", "bus", "endpoint", "sns", "topic")):
		return set(effPublish, "publish ("+recvName(recv)+"."+m+")")
	// StackExchange.Redis.
	case isRedisIncr(strings.TrimSuffix(m, "Async")) || redisCSharpIncr[strings.TrimSuffix(m, "Async")]:
		return set(effIncrement, "redis "+m)
	case redisCSharpAppend[strings.TrimSuffix(m, "Async")]:
		return set(effAppend, "redis "+m)
	case (m == "StringSetAsync" || m == "StringSet") && mentions(call, "When.NotExists"), m == "LockTakeAsync" || m == "LockTake":
		return set(effGuard, "SET NX ("+m+")")
	// Dapr state.
	case m == "TrySaveStateAsync" || m == "TrySaveAsync" || m == "TrySaveByteStateAsync":
		return set(effGuard, "state save with an etag ("+m+")")
	case m == "SaveStateAsync" || m == "SaveBulkStateAsync" || m == "ExecuteStateTransactionAsync" || m == "SaveByteStateAsync":
		if stateConditional(call) {
			return set(effGuard, "state save with an etag or first-write concurrency ("+m+")")
		}
		return set(effIdempotent, "state save ("+m+")")
	case m == "DeleteStateAsync" || m == "TryDeleteStateAsync":
		return set(effIdempotent, m)
	case m == "GetStateAsync" || m == "GetStateAndETagAsync" || m == "GetBulkStateAsync" || m == "GetStateEntryAsync" || m == "GetByteStateAsync":
		return set(effRead, m)
	// EF Core.
	case (m == "Add" || m == "AddAsync" || m == "AddRange" || m == "AddRangeAsync") && isDbSet(recv):
		return set(effInsert, recv.Text+"."+m+" (EF Core insert)")
	case (m == "ExecuteUpdate" || m == "ExecuteUpdateAsync") && efIncrement.MatchString(call.Text):
		return set(effIncrement, m+" (SetProperty x => x.n + …)")
	// MongoDB.
	case (m == "UpdateOneAsync" || m == "UpdateManyAsync" || m == "FindOneAndUpdateAsync") && anyCall(call, "Inc"):
		return set(effIncrement, "$inc ("+m+")")
	case (m == "UpdateOneAsync" || m == "ReplaceOneAsync") && mentions(call, "IsUpsert"):
		return set(effGuard, m+" with upsert")
	case m == "InsertOneAsync" || m == "InsertManyAsync":
		return set(effInsert, m)
	// Files.
	case strings.HasPrefix(ref, "System.IO.File.Append"):
		return set(effAppend, "File."+m)
	case isNew && call.Name == "StreamWriter" && (isTrue(call.Keyword("append")) || isTrue(call.Arg(1))):
		return set(effAppend, "new StreamWriter(…, append: true)")
	case m == "AppendBlockAsync" || m == "AppendAsync" && textHas(recv, "blob"):
		return set(effAppend, m)
	}
	return e
}

var (
	// redisCSharpIncr and redisCSharpAppend are StackExchange.Redis's
	// counter and append commands (without the Async suffix).
	redisCSharpIncr = map[string]bool{
		"StringIncrement": true, "StringDecrement": true, "HashIncrement": true, "HashDecrement": true, "SortedSetIncrement": true,
	}
	redisCSharpAppend = map[string]bool{
		"ListRightPush": true, "ListLeftPush": true, "StreamAdd": true, "StringAppend": true,
	}
	// efIncrement is EF Core's SetProperty(x => x.N, x => x.N + …).
	efIncrement = regexp.MustCompile(`SetProperty\(\s*(\w+)\s*=>\s*\w+\.(\w+)\s*,\s*(\w+)\s*=>\s*\w+\.(\w+)\s*[+-]`)
)

// mentionsMethod reports whether an expression names an HTTP method:
// HttpMethod.Post, Method.Post, "POST".
func mentionsMethod(e *Expr, method string) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ExprAttr, ExprIdent:
		return e.Name == method || e.Name == strings.ToUpper(method)
	case ExprString:
		return strings.EqualFold(e.Str, method)
	}
	return false
}

// isCreateVerb reports whether a payment service's method creates,
// captures or confirms (charges).
func isCreateVerb(m string) bool {
	switch strings.TrimSuffix(m, "Async") {
	case "Create", "Capture", "Confirm":
		return true
	}
	return false
}

// isDbSet reports whether a receiver is an EF Core DbSet or DbContext:
// db.Orders, _context.Payments, db, context.Set<T>().
func isDbSet(recv *Expr) bool {
	if recv == nil {
		return false
	}
	dbName := func(e *Expr) bool {
		if e == nil {
			return false
		}
		n := strings.ToLower(e.Name)
		if e.Kind == ExprIdent && e.Name == "this" {
			return false
		}
		return (strings.Contains(n, "db") || strings.HasSuffix(n, "context")) && !strings.Contains(n, "http")
	}
	switch recv.Kind {
	case ExprAttr:
		return dbName(recv.X)
	case ExprIdent:
		return dbName(recv)
	case ExprCall:
		return recv.Name == "Set" && dbName(recv.Receiver())
	}
	return false
}
