def hello(name):
    """Say hello."""
    return f"hello {name}"
