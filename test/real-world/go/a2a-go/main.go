// A real A2A server built with the official Go SDK (github.com/a2aproject/a2a-go v0.3.3, A2A
// protocol 0.3) for test/real-world/go-a2a-go.test.ts and record.mjs.
//
// The SDK's own handlers on net/http, 127.0.0.1 only:
//
//	GET  /.well-known/agent-card.json  a2asrv.NewStaticAgentCardHandler (a2asrv.WellKnownAgentCardPath)
//	POST /invoke                       a2asrv.NewJSONRPCHandler: message/send, message/stream, tasks/get ...
//
// and, with GRPC=1, the SDK's gRPC handler (a2agrpc.NewHandler(...).RegisterWith on a
// grpc.Server: the 0.3 service a2a.v1.A2AService) on 127.0.0.1:GRPC_PORT,
// both behind one a2asrv.NewHandler (the SDK's default request handler, in-memory task store).
// v0.3.3 has no HTTP+JSON (REST) server.
//
// The executor is deterministic (no model). The SDK hands it the message's metadata as
// RequestContext.Metadata (the params' own `metadata` does not reach the executor in v0.3.3), so
// the skill id is read from `message.metadata.skillId`, else from a data part `{"skill": ...}`,
// else (a client naming no skill) from the text's `<skill>:` prefix:
//
//	summarize  text artifact "Summary: <first six words>."
//	translate  text artifact "FR: <text>"
//
// each as the SDK's template in a2asrv/agentexec.go writes it: status-update submitted (new task
// only) → status-update working (agent message) → artifact-update → status-update completed
// (final). A text containing `max_words=-1` makes the skill return a2a.ErrInvalidParams (wrapped)
// before any event: the SDK answers JSON-RPC -32602 with the wrapped text in `data.error` (gRPC:
// INTERNAL with the text); `format=pdf`, a2a.ErrUnsupportedContentType (wrapped): JSON-RPC -32005
// (gRPC: INVALID_ARGUMENT with the text).
//
// env (or argv: [port]):
//
//	PORT     port on 127.0.0.1 (0 or unset: a free one)
//	VARIANT  healthy | A | B
//	  healthy  skills summarize, translate
//	  A        translate removed from the card (version still 1.0.0); a request for it is
//	           answered the way the SDK's AgentExecutor documentation says failures are reported:
//	           a final status-update FAILED with an agent message "unknown skill: translate"
//	           (UNKNOWN_SKILL=status, the default); or Execute returns
//	           fmt.Errorf("unknown skill: translate: %w", a2a.ErrInvalidParams) before any event
//	           (UNKNOWN_SKILL=error: JSON-RPC -32602, the text in `data.error`), or the same with
//	           a2a.ErrUnsupportedOperation (UNKNOWN_SKILL=unsupported: -32004); or Execute
//	           returns a plain error after the submitted event (UNKNOWN_SKILL=plain: the SDK
//	           answers -32603 "internal error", the text is lost)
//	  B        the card is identical to healthy, but summarize now returns a file part
//	           (bytes, mimeType image/png)
//	NIL_TAGS  1: translate's Tags left nil, served as `"tags": null` (encoding/json's nil slice)
//	GRPC      1: also serve gRPC on GRPC_PORT (0 or unset: a free one); the card then prefers it
//	          as a 0.3 card says so: url "127.0.0.1:<grpc port>", preferredTransport "GRPC",
//	          additionalInterfaces [GRPC that target, JSONRPC /invoke]. Over gRPC the SDK maps an
//	          executor's error with toGRPCError: ErrInvalidParams (not in its table) → INTERNAL,
//	          ErrUnsupportedOperation → UNIMPLEMENTED, ErrTaskNotFound → NOT_FOUND, the error's
//	          text as the status details, no grpc-status-details-bin.
//
// Prints one JSON line {"port":N} on stdout once the listener is bound; logs go to stderr.
//
// `peer client <origin> <card path> <skill id> <text>` runs a2a-go's CLIENT instead (client.go),
// for the conformance table's agent's side: one binary, one module, go.sum the lock of both.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2agrpc"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
	"google.golang.org/grpc"
)

// A valid 1x1 PNG (variant B's summarize).
const png1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

type docsExecutor struct {
	variant      string
	unknownSkill string
	served       map[string]bool
}

func (e *docsExecutor) skillOf(reqCtx *a2asrv.RequestContext) string {
	if s, ok := reqCtx.Metadata["skillId"].(string); ok && s != "" {
		return s
	}
	if reqCtx.Message != nil {
		for _, p := range reqCtx.Message.Parts {
			if d, ok := p.(a2a.DataPart); ok {
				if s, ok := d.Data["skill"].(string); ok && s != "" {
					return s
				}
			}
		}
		// a client that names no skill (ADK's RemoteA2aAgent, Strands...): routed by the words,
		// as an agent whose model reads the request would (`summarize: ...`)
		for _, p := range reqCtx.Message.Parts {
			if t, ok := p.(a2a.TextPart); ok {
				for _, s := range []string{"summarize", "translate"} {
					if strings.HasPrefix(t.Text, s+":") {
						return s
					}
				}
			}
		}
	}
	return ""
}

func userText(reqCtx *a2asrv.RequestContext) string {
	var b strings.Builder
	if reqCtx.Message != nil {
		for _, p := range reqCtx.Message.Parts {
			if t, ok := p.(a2a.TextPart); ok {
				b.WriteString(t.Text)
			}
		}
	}
	text := b.String()
	for _, prefix := range []string{"summarize:", "translate:"} {
		if strings.HasPrefix(text, prefix) {
			return strings.TrimSpace(text[len(prefix):])
		}
	}
	return text
}

func (e *docsExecutor) Execute(ctx context.Context, reqCtx *a2asrv.RequestContext, q eventqueue.Queue) error {
	skill := e.skillOf(reqCtx)
	text := userText(reqCtx)
	if !e.served[skill] {
		reason := fmt.Sprintf("unknown skill: %s", skill)
		switch e.unknownSkill {
		case "error":
			return fmt.Errorf("%s: %w", reason, a2a.ErrInvalidParams)
		case "unsupported":
			return fmt.Errorf("%s: %w", reason, a2a.ErrUnsupportedOperation)
		case "plain":
			if err := q.Write(ctx, a2a.NewStatusUpdateEvent(reqCtx, a2a.TaskStateSubmitted, nil)); err != nil {
				return err
			}
			return errors.New(reason)
		}
		if reqCtx.StoredTask == nil {
			if err := q.Write(ctx, a2a.NewStatusUpdateEvent(reqCtx, a2a.TaskStateSubmitted, nil)); err != nil {
				return fmt.Errorf("failed to write state submitted: %w", err)
			}
		}
		ev := a2a.NewStatusUpdateEvent(reqCtx, a2a.TaskStateFailed,
			a2a.NewMessageForTask(a2a.MessageRoleAgent, reqCtx, a2a.TextPart{Text: reason}))
		ev.Final = true
		return q.Write(ctx, ev)
	}
	if strings.Contains(text, "max_words=-1") {
		// the skill's own parameter check, the SDK's error type, before any event
		return fmt.Errorf("skill %q: 'max_words' must be a positive integer: %w", skill, a2a.ErrInvalidParams)
	}
	if strings.Contains(text, "format=pdf") {
		// an output the skill cannot produce, the SDK's error type, before any event
		return fmt.Errorf("skill %q: cannot produce application/pdf: %w", skill, a2a.ErrUnsupportedContentType)
	}
	if reqCtx.StoredTask == nil {
		if err := q.Write(ctx, a2a.NewStatusUpdateEvent(reqCtx, a2a.TaskStateSubmitted, nil)); err != nil {
			return fmt.Errorf("failed to write state submitted: %w", err)
		}
	}
	working := a2a.NewStatusUpdateEvent(reqCtx, a2a.TaskStateWorking,
		a2a.NewMessageForTask(a2a.MessageRoleAgent, reqCtx, a2a.TextPart{Text: skill + ": working"}))
	if err := q.Write(ctx, working); err != nil {
		return fmt.Errorf("failed to write state working: %w", err)
	}
	var part a2a.Part
	switch {
	case skill == "summarize" && e.variant == "B":
		part = a2a.FilePart{File: a2a.FileBytes{
			FileMeta: a2a.FileMeta{MimeType: "image/png", Name: "summary.png"},
			Bytes:    png1x1,
		}}
	case skill == "summarize":
		words := strings.Fields(text)
		if len(words) > 6 {
			words = words[:6]
		}
		part = a2a.TextPart{Text: fmt.Sprintf("Summary: %s.", strings.Join(words, " "))}
	default:
		part = a2a.TextPart{Text: "FR: " + text}
	}
	artifact := a2a.NewArtifactEvent(reqCtx, part)
	artifact.Artifact.Name = skill
	artifact.LastChunk = true
	if err := q.Write(ctx, artifact); err != nil {
		return fmt.Errorf("failed to write artifact update: %w", err)
	}
	done := a2a.NewStatusUpdateEvent(reqCtx, a2a.TaskStateCompleted, nil)
	done.Final = true
	if err := q.Write(ctx, done); err != nil {
		return fmt.Errorf("failed to write state completed: %w", err)
	}
	return nil
}

func (e *docsExecutor) Cancel(ctx context.Context, reqCtx *a2asrv.RequestContext, q eventqueue.Queue) error {
	return a2a.ErrTaskNotCancelable
}

func buildCard(port int, grpcPort int, served []string, nilTags bool) *a2a.AgentCard {
	// NIL_TAGS=1: a Go agent that leaves a slice nil serves `"tags": null`
	translateTags := []string{"docs"}
	if nilTags {
		translateTags = nil
	}
	skills := map[string]a2a.AgentSkill{
		"summarize": {
			ID:          "summarize",
			Name:        "Summarize",
			Description: "Summarise a text in one sentence.",
			Tags:        []string{"docs"},
			Examples:    []string{"summarize: the quarterly report"},
			InputModes:  []string{"text/plain"},
			OutputModes: []string{"text/plain"},
		},
		"translate": {
			ID:          "translate",
			Name:        "Translate",
			Description: "Translate a text into French.",
			Tags:        translateTags,
			InputModes:  []string{"text/plain"},
			OutputModes: []string{"text/plain"},
		},
	}
	list := make([]a2a.AgentSkill, 0, len(served))
	for _, s := range served {
		list = append(list, skills[s])
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/invoke", port)
	primary, preferred := url, a2a.TransportProtocolJSONRPC
	interfaces := []a2a.AgentInterface{{URL: url, Transport: a2a.TransportProtocolJSONRPC}}
	if grpcPort != 0 {
		// gRPC first: the 0.3 card's main url and preferred transport, listed again among the
		// additional interfaces (as the 0.3 spec asks: the main one is repeated there)
		primary, preferred = fmt.Sprintf("127.0.0.1:%d", grpcPort), a2a.TransportProtocolGRPC
		interfaces = append([]a2a.AgentInterface{{URL: primary, Transport: a2a.TransportProtocolGRPC}}, interfaces...)
	}
	return &a2a.AgentCard{
		Name:                 "Docs Agent",
		Description:          "Summarises and translates texts.",
		URL:                  primary,
		PreferredTransport:   preferred,
		AdditionalInterfaces: interfaces,
		ProtocolVersion:      "0.3.0",
		Provider:             &a2a.AgentProvider{Org: "A2A Samples", URL: "https://example.com"},
		Version:              "1.0.0",
		Capabilities:         a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:    []string{"text/plain"},
		DefaultOutputModes:   []string{"text/plain"},
		Skills:               list,
	}
}

func main() {
	log.SetOutput(os.Stderr)
	if len(os.Args) > 1 && os.Args[1] == "client" {
		runClient(os.Args[2:])
		return
	}
	port := os.Getenv("PORT")
	if len(os.Args) > 1 {
		port = os.Args[1]
	}
	if port == "" {
		port = "0"
	}
	variant := os.Getenv("VARIANT")
	if variant == "" {
		variant = "healthy"
	}
	if variant != "healthy" && variant != "A" && variant != "B" {
		log.Fatalf("VARIANT must be healthy|A|B, not %s", variant)
	}
	unknownSkill := os.Getenv("UNKNOWN_SKILL")
	if unknownSkill == "" {
		unknownSkill = "status"
	}
	served := []string{"summarize", "translate"}
	if variant == "A" {
		served = []string{"summarize"}
	}
	listener, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		log.Fatalf("failed to bind: %v", err)
	}
	bound := listener.Addr().(*net.TCPAddr).Port
	exec := &docsExecutor{variant: variant, unknownSkill: unknownSkill, served: map[string]bool{}}
	for _, s := range served {
		exec.served[s] = true
	}
	requestHandler := a2asrv.NewHandler(exec)
	grpcBound := 0
	if os.Getenv("GRPC") == "1" {
		grpcPort := os.Getenv("GRPC_PORT")
		if grpcPort == "" {
			grpcPort = "0"
		}
		grpcListener, err := net.Listen("tcp", "127.0.0.1:"+grpcPort)
		if err != nil {
			log.Fatalf("failed to bind gRPC: %v", err)
		}
		grpcBound = grpcListener.Addr().(*net.TCPAddr).Port
		server := grpc.NewServer()
		a2agrpc.NewHandler(requestHandler).RegisterWith(server)
		go func() {
			if err := server.Serve(grpcListener); err != nil {
				log.Printf("gRPC server stopped: %v", err)
			}
		}()
	}
	mux := http.NewServeMux()
	mux.Handle("/invoke", a2asrv.NewJSONRPCHandler(requestHandler))
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(buildCard(bound, grpcBound, served, os.Getenv("NIL_TAGS") == "1")))
	fmt.Printf("{\"port\":%d}\n", bound)
	if err := http.Serve(listener, mux); err != nil {
		log.Printf("server stopped: %v", err)
	}
}
