package dev.baton.benchmarks.peers.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageType;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import java.util.List;

/**
 * The scripted models of Baton's benchmarks (benchmarks/.../Fixtures.java and
 * DelegationBenchmark.java) as LangChain4j chat models: each answers from prebuilt responses and
 * looks only at the last message, so the peer does the same work per call as Baton's.
 */
final class CannedModels {
  static final String CHAT_ANSWER = "Sure, here is a short answer.";
  static final String TOOL_ANSWER = "It is 18 degrees in Paris.";
  static final String DELEGATION_ANSWER = "The capital of France is Paris.";

  private CannedModels() {}

  /** Fixtures.chatModel: every call answers with the same text. */
  static ChatModel chat() {
    ChatResponse answer = stop(AiMessage.from(CHAT_ANSWER));
    return new CannedModel(request -> answer);
  }

  /** Fixtures.toolModel: calls {@code lookup} once, then answers from the tool's output. */
  static ChatModel tool() {
    ChatResponse call =
        ChatResponse.builder()
            .aiMessage(
                AiMessage.from(
                    ToolExecutionRequest.builder()
                        .id("call-1")
                        .name("lookup")
                        .arguments("{\"city\":\"Paris\"}")
                        .build()))
            .finishReason(FinishReason.TOOL_EXECUTION)
            .build();
    ChatResponse answer = stop(AiMessage.from(TOOL_ANSWER));
    return new CannedModel(
        request -> last(request).type() == ChatMessageType.TOOL_EXECUTION_RESULT ? answer : call);
  }

  /**
   * The orchestrator of DelegationBenchmark as the supervisor's planner: it first delegates the
   * task to the researcher, then answers once its request carries the researcher's answer (the
   * supervisor passes the last sub-agent's response in the planner's user message; LangChain4j
   * parses the planner's JSON into an agent invocation, with "done" ending the plan).
   */
  static ChatModel planner() {
    ChatResponse delegate =
        stop(
            AiMessage.from(
                "{\"agentName\":\"researcher\",\"arguments\":{\"task\":\"Find the capital of"
                    + " France.\"}}"));
    ChatResponse done =
        stop(
            AiMessage.from(
                "{\"agentName\":\"done\",\"arguments\":{\"response\":\""
                    + DELEGATION_ANSWER
                    + "\"}}"));
    return new CannedModel(
        request ->
            last(request) instanceof UserMessage user
                    && user.hasSingleText()
                    && user.singleText().contains(CHAT_ANSWER)
                ? done
                : delegate);
  }

  private static ChatResponse stop(AiMessage message) {
    return ChatResponse.builder().aiMessage(message).finishReason(FinishReason.STOP).build();
  }

  private static ChatMessage last(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    return messages.get(messages.size() - 1);
  }

  /** A chat model that answers by a function of the request; no network, no listeners. */
  private record CannedModel(java.util.function.Function<ChatRequest, ChatResponse> script)
      implements ChatModel {
    @Override
    public ChatResponse doChat(ChatRequest request) {
      return script.apply(request);
    }
  }
}
