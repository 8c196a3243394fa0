package main

// `peer client <origin> <card path> <skill id> <text>`: a2a-go's own CLIENT (a2aclient, v0.3.3:
// A2A protocol 0.3 only, JSON-RPC and gRPC transports) without anything of the instrumentation,
// for the conformance table's agent's side (test/real-world/conformance/agent-side.ts). It reads
// the card with agentcard.Resolver, builds the client with a2aclient.NewFromCard (the card's
// `url` / `preferredTransport` / `additionalInterfaces`: a 1.0-only card, which has none of
// these, gives "no compatible transports"; an absent `preferredTransport` is given 0.3's default
// JSONRPC first, see below), and sends one non-streaming message/send naming the
// skill in the MESSAGE metadata (`skillId`, where 0.3 agents look for it). Prints one JSON line:
// every HTTP exchange it made (method, url, status, lower-case headers, body) and what the call
// returned, or the error.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
)

type exchange struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

// recorder is the http.Client's transport: it keeps every exchange, the body read and put back
// so the SDK reads the same bytes.
type recorder struct {
	next      http.RoundTripper
	exchanges []exchange
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	headers := map[string]string{}
	for k, v := range res.Header {
		headers[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	r.exchanges = append(r.exchanges, exchange{req.Method, req.URL.String(), res.StatusCode, headers, string(body)})
	return res, nil
}

func runClient(args []string) {
	if len(args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: peer client <origin> <card path> <skill id> <text>")
		os.Exit(2)
	}
	origin, cardPath, skill, text := args[0], args[1], args[2], args[3]
	rec := &recorder{next: http.DefaultTransport}
	httpClient := &http.Client{Transport: rec, Timeout: 30 * time.Second}
	out := map[string]any{}
	ctx := context.Background()
	err := func() error {
		card, err := agentcard.NewResolver(httpClient).Resolve(ctx, origin, agentcard.WithPath(cardPath))
		if err != nil {
			return err
		}
		if card.PreferredTransport == "" {
			// v0.3.3's NewFromCard takes the card's `preferredTransport` as it is: a card that
			// leaves it out (VoltAgent's, Mastra's) gives "no compatible transports", though 0.3
			// says it defaults to JSONRPC. A Go app calling such an agent fills in the default
			// itself; so does this client, and says so.
			card.PreferredTransport = a2a.TransportProtocolJSONRPC
			out["preferredTransportDefaulted"] = true
		}
		client, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithJSONRPCTransport(httpClient))
		if err != nil {
			return err
		}
		msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: text})
		msg.Metadata = map[string]any{"skillId": skill}
		blocking := true
		result, err := client.SendMessage(ctx, &a2a.MessageSendParams{
			Message: msg,
			Config:  &a2a.MessageSendConfig{Blocking: &blocking},
		})
		if err != nil {
			return err
		}
		out["result"] = result
		return nil
	}()
	if err != nil {
		out["error"] = err.Error()
	}
	out["exchanges"] = rec.exchanges
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
