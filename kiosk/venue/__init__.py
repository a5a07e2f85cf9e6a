"""The venue: tables publish to the director's dashboard over MQTT (mosquitto), nothing lost.

``topics`` (layout), ``schema`` (versioned payloads), ``outbox`` (persistent SQLite queue),
``link`` (paho-mqtt connection draining the outbox), ``publisher`` (the kiosk's side),
``broker`` (mosquitto configuration, per-kiosk credentials and ACL).
"""
