"""The algorithms of UTS #58 with their argument checks: termination (§3.5.1), minimal escaping
(§4.1), whole-URL formatting (§4) and email addresses (§5.2, §5.3)."""
