// Machine readable zones (TD1, TD2, TD3, MRV-A, MRV-B): parsing with positions and check digits, and the access-key input rules.
