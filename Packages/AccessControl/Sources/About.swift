// Opening the chip: BAC and PACE, handing session keys to secure messaging.
