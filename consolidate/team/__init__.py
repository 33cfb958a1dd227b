"""Team memory: share what the project learned through git (`share`), check it (`share --check`),
and brief a newcomer from it (`onboard`)."""
