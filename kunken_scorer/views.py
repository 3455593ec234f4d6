"""Blueprint placeholder: filled in by the module's owner."""

from flask import Blueprint

bp = Blueprint("views", __name__)
