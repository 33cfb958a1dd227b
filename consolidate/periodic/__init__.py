"""Periodic dreams: plans prepared without a person (SessionEnd, a user timer), reviewed by one."""
