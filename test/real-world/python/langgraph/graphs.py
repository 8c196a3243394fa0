"""The graphs peer.py serves (loaded by langgraph-api from LANGSERVE_GRAPHS, `graphs.py:<name>`):
plain LangGraph StateGraphs over `messages`, no language model (deterministic, no network).

  desk    summarises the last user text: "Summary: <first six words>."
          VARIANT=B: the same graph id (so the same assistant id, skill id and card) answers
          with an image content block instead (LangGraph's A2A layer turns it into a file part,
          `image/png`), where the card says `application/json` / `text/plain`
  studio  translates: "FR: <text>"; gone under VARIANT=A (the redeploy removed the graph)
"""

import os
from typing import Annotated, TypedDict

from langchain_core.messages import AIMessage, AnyMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

VARIANT = os.environ.get('VARIANT', 'healthy')
# a 1×1 PNG
PNG_B64 = (
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
)


class State(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]


def _last_text(state: State) -> str:
    last = state['messages'][-1]
    if isinstance(last.content, str):
        return last.content
    return ''.join(b.get('text', '') for b in last.content if isinstance(b, dict))


def _summarize(state: State) -> dict:
    text = _last_text(state)
    if VARIANT == 'B':
        return {
            'messages': [
                AIMessage(content=[{'type': 'image', 'base64': PNG_B64, 'mime_type': 'image/png'}])
            ]
        }
    words = text.split(':', 1)[-1].split()
    return {'messages': [AIMessage(content=f"Summary: {' '.join(words[:6])}.")]}


def _translate(state: State) -> dict:
    return {'messages': [AIMessage(content=f'FR: {_last_text(state)}')]}


def _one_node(name: str, fn) -> object:
    b = StateGraph(State)
    b.add_node(name, fn)
    b.add_edge(START, name)
    b.add_edge(name, END)
    return b.compile()


desk = _one_node('summarize', _summarize)
studio = _one_node('translate', _translate)
