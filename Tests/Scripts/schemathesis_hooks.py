"""Schemathesis hooks for Kiwi's contract test (Tests/KiwiServicesTests/ContractFuzzingTests.swift).

A scan's photos must be JPEGs, a rule `openapi.yaml` can state only in words: a schema can say "image/jpeg", not
"starts with FF D8 FF". Two consequences, each handled here for the two scan routes only:

- Schemathesis draws the photos of a request it means as valid as arbitrary strings, which Kiwi rightly refuses (400
  `invalid_image`). Before such a request is sent, each of its photos becomes a real JPEG, the file named by
  KIWI_SCHEMATHESIS_PHOTO. Requests meant as invalid are sent as drawn.
- Its coverage phase labels some uploads invalid that are, as sent, valid: JPEG photos (its own samples), a valid
  mode (other fields are allowed). Kiwi accepting one of those is no failure, and only that is dropped.

A pantry item's best-before date and unit have rules of the same kind (a date relative to today, a unit only with a
quantity): a request meant as valid that breaks them is made to keep them before it is sent.
"""

import os
from datetime import datetime, timezone

import schemathesis
from schemathesis.core.failures import AcceptedNegativeData
from schemathesis.core.parameters import ParameterLocation

SCAN_ROUTES = {("POST", "/v1/scan"), ("POST", "/v1/scans")}
PANTRY_ITEM_ROUTES = {("POST", "/v1/pantry/items"), ("PATCH", "/v1/pantry/items/{id}")}
MODES = {"fridge", "dish"}

with open(os.environ["KIWI_SCHEMATHESIS_PHOTO"], "rb") as photo_file:
    PHOTO = photo_file.read()


def is_scan(case):
    return (case.method.upper(), case.operation.path) in SCAN_ROUTES


def is_jpeg(part):
    return isinstance(part, (bytes, bytearray)) and part[:3] == b"\xff\xd8\xff" and len(part) <= 2 * 1024 * 1024


def is_valid_upload(body):
    """Whether `body` is, as sent, what openapi.yaml allows: 1 to 5 JPEGs and a mode or none (other fields are
    allowed, and ignored)."""
    if not isinstance(body, dict):
        return False
    photos = body.get("image")
    if not isinstance(photos, list) or not 1 <= len(photos) <= 5 or not all(map(is_jpeg, photos)):
        return False
    return body.get("mode", "fridge") in MODES


def is_pantry_item(case):
    return (case.method.upper(), case.operation.path) in PANTRY_ITEM_ROUTES


def valid_pantry_item(body):
    """A pantry item's members as drawn, made to keep the two rules openapi.yaml states in words: a best-before date
    is from yesterday to five years ahead (today's UTC date is taken), and a unit comes with a quantity (1)."""
    if isinstance(body.get("bestBefore"), str):
        body = {**body, "bestBefore": datetime.now(timezone.utc).date().isoformat()}
    if body.get("unit") is not None and body.get("quantity") is None:
        body = {**body, "quantity": 1}
    return body


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    if is_pantry_item(case) and isinstance(case.body, dict):
        case.body = valid_pantry_item(case.body)
        return
    if not is_scan(case):
        return
    # A new body, not the drawn one changed: schemathesis may send that one again in another case.
    if isinstance(case.body, dict) and isinstance(case.body.get("image"), list):
        case.body = {**case.body, "image": [PHOTO for _ in case.body["image"]]}


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if not isinstance(failure, AcceptedNegativeData) or not is_scan(case) or case.meta is None:
        return True
    components = case.meta.components.items()
    others_valid = all(component.mode.is_positive for location, component in components if location != ParameterLocation.BODY)
    return not (others_valid and is_valid_upload(case.body))
