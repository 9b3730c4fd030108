"""The SMS gateway of the casino host's service, typed: for the routes (`ThisGateway`) and the
`frontdesk sms` commands (`gateway_of`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from frontdesk.assistants.base import AssistantService
from frontdesk.assistants.casino_host.channel.gateway import SmsGateway
from frontdesk.errors import FrontdeskError
from frontdesk.plugin_api import (
    service_for,
)


def gateway_of(service: object) -> SmsGateway:
    """The SMS gateway the build gave the casino host's service (`service.sms`)."""
    gateway = getattr(service, "sms", None)
    if not isinstance(gateway, SmsGateway):
        raise FrontdeskError("the casino host has no SMS channel")
    return gateway


ThisService = Annotated[AssistantService, Depends(service_for("casino_host"))]


def this_gateway(service: ThisService) -> SmsGateway:
    return gateway_of(service)


ThisGateway = Annotated[SmsGateway, Depends(this_gateway)]
