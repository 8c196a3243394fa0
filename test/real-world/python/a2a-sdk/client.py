"""A client WITHOUT this package, for the conformance table's agent's side: the Python a2a-sdk
client (its ClientFactory, from the card URL) sends one message naming a skill in the request
metadata, non-streaming. Prints one JSON line: the card's bytes as received, the response
headers and status of every request it made, and what the call returned (or the error).

    client.py <origin> <card path> <skill id> <text>
"""

import asyncio
import json
import sys

import httpx
from a2a.client import ClientConfig, create_client
from a2a.helpers.proto_helpers import new_text_message
from a2a.types.a2a_pb2 import Role, SendMessageRequest
from google.protobuf import struct_pb2
from google.protobuf.json_format import MessageToDict


async def main(origin: str, card_path: str, skill: str, text: str) -> None:
    exchanges = []

    async def on_response(response: httpx.Response) -> None:
        await response.aread()
        exchanges.append(
            {
                'method': response.request.method,
                'url': str(response.request.url),
                'status': response.status_code,
                'headers': dict(response.headers),
                'body': response.text,
            }
        )

    out: dict = {'exchanges': exchanges}
    async with httpx.AsyncClient(event_hooks={'response': [on_response]}, timeout=30) as http:
        try:
            client = await create_client(
                origin,
                client_config=ClientConfig(streaming=False, httpx_client=http),
                relative_card_path=card_path,
            )
            metadata = struct_pb2.Struct()
            metadata.update({'skillId': skill})
            request = SendMessageRequest(
                message=new_text_message(text, role=Role.ROLE_USER), metadata=metadata
            )
            out['events'] = [MessageToDict(e) async for e in client.send_message(request)]
        except Exception as e:  # noqa: BLE001 (the test reads what failed)
            out['error'] = f'{type(e).__name__}: {e}'
    print(json.dumps(out))


if __name__ == '__main__':
    asyncio.run(main(*sys.argv[1:5]))
