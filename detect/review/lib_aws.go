package review

import "regexp"

// AWS SDKs (boto3, aws-sdk-go-v2): SQS sends, DynamoDB writes (a
// ConditionExpression refuses the duplicate; ADD or x = x + n in an
// UpdateExpression counts twice) and S3 uploads (a PUT of a whole object
// to a key: idempotent). SES is with the mail providers, SNS with the
// brokers.
func libAWS() library {
	hasCondition := func(c *libCall) bool {
		return c.Keyword("ConditionExpression") != nil || anyKey(c.Expr, func(k string) bool { return k == "ConditionExpression" })
	}
	return library{
		name:   "AWS",
		source: "boto/boto3 and botocore service models (sqs SendMessage: MessageDeduplicationId; dynamodb PutItem/UpdateItem: ConditionExpression, UpdateExpression; s3 PutObject); aws/aws-sdk-go-v2 service/sqs, service/dynamodb",
		modules: map[Lang][]string{
			LangPython: {"boto3", "botocore"},
			LangGo:     {"github.com/aws/"},
			LangCSharp: {"Amazon"},
		},
		rows: []api{
			{methods: []string{"send_message"}, when: func(c *libCall) bool { return c.Keyword("QueueUrl") != nil || textHas(c.recv, "sqs") },
				kind: effPublish, what: "SQS send_message", twice: "publishes a duplicate", key: arg(-1, "MessageDeduplicationId"),
				refuses: "a FIFO queue drops a repeated MessageDeduplicationId for five minutes"},
			{methods: []string{"SendMessage"}, recv: []string{"sqs"}, kind: effPublish, what: "SQS SendMessage", twice: "publishes a duplicate", key: arg(-1, "MessageDeduplicationId"),
				refuses: "a FIFO queue drops a repeated MessageDeduplicationId for five minutes"},
			{methods: []string{"update_item", "UpdateItem"}, when: func(c *libCall) bool { return updateExprIncrements(c.Expr) && hasCondition(c) },
				kind: effGuard, what: "{m} with ConditionExpression", refuses: "the ConditionExpression fails the second write"},
			{methods: []string{"update_item", "UpdateItem"}, when: func(c *libCall) bool { return updateExprIncrements(c.Expr) },
				kind: effIncrement, what: "{m} (ADD / x = x + …)", twice: "counts twice"},
			{methods: []string{"put_item", "PutItem"}, when: hasCondition, kind: effGuard, what: "{m} with ConditionExpression", refuses: "the ConditionExpression fails the second write"},
			{methods: []string{"put_item", "PutItem", "put_object", "PutObject", "upload_fileobj", "upload_file"}, kind: effIdempotent, what: "{m}"},
		},
	}
}

var dynamoIncr = regexp.MustCompile(`(?i)^\s*ADD\b|\bADD\s+[#:A-Za-z_]|([#:A-Za-z_][A-Za-z0-9_]*)\s*=\s*([#:A-Za-z_][A-Za-z0-9_]*)\s*[+-]`)

// updateExprIncrements reports whether a DynamoDB update adds to a value
// (ADD, or x = x + n).
func updateExprIncrements(call *Expr) bool {
	var exprs []*Expr
	if v := call.Keyword("UpdateExpression"); v != nil {
		exprs = append(exprs, v)
	}
	call.Exprs(func(x *Expr) bool {
		for _, k := range x.Keys {
			if k.Key == "UpdateExpression" {
				exprs = append(exprs, k.Value)
			}
		}
		return true
	})
	for _, v := range exprs {
		for _, s := range v.Strings() {
			if dynamoIncr.MatchString(s) {
				if m := dynamoIncr.FindStringSubmatch(s); m != nil && m[1] != "" && m[1] != m[2] {
					continue
				}
				return true
			}
		}
	}
	return false
}
