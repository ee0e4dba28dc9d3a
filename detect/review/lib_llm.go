package review

// LLM clients: Anthropic's and OpenAI's SDKs, and the Dapr Conversation
// API. Asking a model changes nothing outside: a second run asks again
// (it costs tokens and may answer differently), which the history keeps
// as the activity's result; it sends no message and writes no row.
// Anthropic's client.messages.create is spelled as Twilio's SMS call is
// (lib_mail.go): the file's imports tell them apart.
func libLLM() library {
	return library{
		name: "LLM clients",
		source: "anthropics/anthropic-sdk-python (resources/messages: Messages.create), openai/openai-python (chat.completions.create, responses.create), " +
			"openai/openai-dotnet (ChatClient.CompleteChatAsync), dapr/python-sdk (converse_alpha1), dapr/dotnet-sdk (DaprConversationClient.ConverseAsync)",
		modules: map[Lang][]string{
			LangPython: {"anthropic", "openai"},
			LangGo:     {"github.com/anthropics/", "github.com/openai/"},
			LangCSharp: {"OpenAI", "Anthropic"},
		},
		rows: []api{
			{lang: LangPython, methods: []string{"create", "stream", "parse"}, hasRecv: true, imports: []string{"anthropic", "openai"},
				recv: []string{"messages", "completions", "responses", "embeddings"}, kind: kindNeutral},
			{lang: LangCSharp, methods: []string{"CompleteChatAsync", "CompleteChat", "CompleteChatStreamingAsync", "GetChatCompletionsAsync", "ConverseAsync"}, kind: kindNeutral},
			{methods: []string{"converse_alpha1", "converse_alpha2", "ConverseAlpha1", "ConverseAlpha2"}, kind: kindNeutral},
		},
	}
}
