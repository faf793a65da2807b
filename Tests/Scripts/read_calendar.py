"""Reads a plan's calendar feed the way a calendar app subscribes to one: with the icalendar package (RFC 5545).

Usage: read_calendar.py < feed.ics
Fails (status 1) when the feed is not valid iCalendar or lacks what Apple Calendar and Google Calendar need of a
subscribed feed: VERSION and PRODID on the calendar; UID, DTSTAMP and DTSTART on every event, each DTSTART in UTC or
with a TZID that a VTIMEZONE of the feed defines. Prints the events as JSON, in the feed's order: uid, summary,
description, url, and start and end as ISO 8601 instants in UTC.
Run by Tests/KiwiServicesTests/PlanEndToEndTests.swift with the virtualenv deploy/local/test.sh makes.
"""
import json
import sys
from datetime import timezone

from icalendar import Calendar

calendar = Calendar.from_ical(sys.stdin.buffer.read())
problems = [name for name in ("VERSION", "PRODID") if name not in calendar]
zones = {str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")}
events = []
for event in calendar.walk("VEVENT"):
    problems += [f"an event without {name}" for name in ("UID", "DTSTAMP", "DTSTART") if name not in event]
    start = event.decoded("DTSTART")
    tzid = event["DTSTART"].params.get("TZID")
    if start.tzinfo is None or (tzid is not None and tzid not in zones):
        problems.append(f"{event.get('UID')}: DTSTART neither in UTC nor in a zone the feed defines")
    events.append({
        "uid": str(event["UID"]),
        "summary": str(event.get("SUMMARY", "")),
        "description": str(event.get("DESCRIPTION", "")),
        "url": str(event.get("URL", "")),
        "start": start.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "end": event.decoded("DTEND").astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    })
if problems:
    sys.exit("; ".join(problems))
print(json.dumps(events))
