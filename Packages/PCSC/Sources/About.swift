// PCSCTransport: a CardTransport over pcsc-lite.
