// A software eMRTD chip, written independently of the reader, for tests, the bench and the no-hardware demo.
