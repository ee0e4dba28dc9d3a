package review

// Message brokers: Kafka (kafka-python, confluent-kafka, segmentio/kafka-go,
// sarama, Confluent.Kafka), NATS, Azure Service Bus, MassTransit and any
// publisher whose receiver says it publishes. A second run publishes a
// duplicate unless the message carries a deterministic id the broker or
// the consumer deduplicates on.
func libMessaging() library {
	const dup = "publishes a duplicate"
	const refuses = "the broker or the consumer drops a repeated message id"
	return library{
		name:   "Message brokers",
		source: "confluentinc/confluent-kafka-python and confluent-kafka-dotnet (produce, ProduceAsync); segmentio/kafka-go (WriteMessages); IBM/sarama (SendMessage); nats-io/nats.go (Publish, MsgId); Azure/azure-sdk-for-net Azure.Messaging.ServiceBus (SendMessageAsync, MessageId); MassTransit (Publish, Send)",
		modules: map[Lang][]string{
			LangPython: {"kafka", "confluent_kafka", "nats"},
			LangGo:     {"github.com/nats-io/", "github.com/segmentio/", "github.com/IBM/sarama", "github.com/Shopify/sarama"},
			LangCSharp: {"Confluent", "MassTransit"},
		},
		rows: []api{
			// .NET.
			{lang: LangCSharp, methods: []string{"SendMessageAsync", "SendMessagesAsync", "ScheduleMessageAsync"}, kind: effPublish, what: "publish ({recv}.{m})", twice: dup, refuses: refuses, key: arg(-1, "MessageId")},
			{lang: LangCSharp, methods: []string{"ProduceAsync", "Produce"}, kind: effPublish, what: "publish (Kafka {m})", twice: dup, refuses: refuses},
			{lang: LangCSharp, methods: []string{"Publish", "Send", "PublishAsync"}, ref: "MassTransit.", kind: effPublish, what: "publish ({recv}.{m})", twice: dup, refuses: refuses},
			{lang: LangCSharp, methods: []string{"Publish", "Send", "PublishAsync"}, recv: []string{"publish", "bus", "endpoint", "sns", "topic"}, kind: effPublish, what: "publish ({recv}.{m})", twice: dup, refuses: refuses},
			// Every language.
			{methods: []string{"publish", "Publish"}, recv: []string{"publish", "pubsub", "sns", "topic", "js", "nats", "nc", "bus", "broker", "events", "client"},
				kind: effPublish, what: "publish ({recv}.{m})", twice: dup, refuses: refuses},
			{methods: []string{"produce", "WriteMessages"}, kind: effPublish, what: "publish ({recv}.{m})", twice: dup, refuses: refuses},
			{methods: []string{"SendMessage"}, recv: []string{"producer", "sarama"}, kind: effPublish, what: "publish ({recv}.{m})", twice: dup, refuses: refuses},
			{methods: []string{"send"}, recv: []string{"producer", "kafka"}, kind: effPublish, what: "publish ({recv}.{m})", twice: dup, refuses: refuses},
			// A message id set by an option (nats.MsgId, JetStream's WithMsgID).
			{methods: []string{"MsgId", "WithMessageID", "WithMsgID"}, kind: kindKeySetter, key: arg(0, ""), keyName: "{m}", refuses: refuses},
		},
	}
}
