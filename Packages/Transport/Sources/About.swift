// Command and response APDUs, status words, the CardTransport protocol every card link implements, and the APDU log.
